// Latchkey sign-in page: passkeys (WebAuthn Level 3 JSON helpers) and passwords. No framework, no CDN.
"use strict";

const $ = (id) => document.getElementById(id);
let accessToken = sessionStorage.getItem("latchkey.access_token");

function setStatus(text, isError = false) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

async function api(method, path, body, authorized = false) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (authorized && accessToken) headers["Authorization"] = "Bearer " + accessToken;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const json = text ? JSON.parse(text) : {};
  if (!response.ok) {
    throw new Error(json.error_description || json.error || ("HTTP " + response.status));
  }
  return json;
}

function keepTokens(tokens) {
  if (tokens && tokens.access_token) {
    accessToken = tokens.access_token;
    sessionStorage.setItem("latchkey.access_token", accessToken);
  }
}

async function showSession() {
  if (!accessToken) { showSignedOut(); return; }
  try {
    const me = await api("GET", "/v1/me", undefined, true);
    $("whoami").textContent = "Signed in as " + me.username;
    $("signed-out").hidden = true;
    $("signed-in").hidden = false;
    await listPasskeys();
  } catch (e) {
    accessToken = null;
    sessionStorage.removeItem("latchkey.access_token");
    showSignedOut();
  }
}

function showSignedOut() {
  $("signed-in").hidden = true;
  $("signed-out").hidden = false;
  $("whoami").textContent = "";
  startConditionalSignIn();
}

function describeBackup(key) {
  if (!key.backup_eligible) return "device-bound";
  return key.backed_up ? "synced (backed up)" : "syncable, not backed up";
}

async function listPasskeys() {
  const list = $("passkeys");
  list.replaceChildren();
  const result = await api("GET", "/v1/passkeys", undefined, true);
  for (const key of result.passkeys || []) {
    const item = document.createElement("li");
    item.dataset.id = key.id;
    const name = document.createElement("strong");
    name.className = "passkey-name";
    name.textContent = key.name || "Passkey";
    const details = document.createElement("div");
    details.className = "passkey-details";
    const parts = [];
    if (key.authenticator) parts.push(key.authenticator);
    parts.push("created " + key.created_at);
    parts.push(key.last_used_at ? "last used " + key.last_used_at : "never used");
    parts.push(describeBackup(key));
    details.textContent = parts.join(" · ");
    if (key.authenticator_icon && key.authenticator_icon.startsWith("data:image/")) {
      const icon = document.createElement("img");
      icon.className = "passkey-icon";
      icon.alt = "";
      icon.src = key.authenticator_icon;
      item.append(icon);
    }
    const rename = document.createElement("button");
    rename.className = "rename";
    rename.type = "button";
    rename.textContent = "Rename";
    rename.addEventListener("click", () => showRename(item, key));
    const remove = document.createElement("button");
    remove.className = "delete";
    remove.type = "button";
    remove.textContent = "Delete";
    remove.addEventListener("click", () => run(async () => {
      await api("DELETE", "/v1/passkeys/" + encodeURIComponent(key.id), undefined, true);
      await listPasskeys();
      setStatus("Passkey deleted.");
    }));
    item.append(name, rename, remove, details);
    list.append(item);
  }
}

// Inline rename: a text field and Save/Cancel in place of the name.
function showRename(item, key) {
  if (item.querySelector(".rename-form")) return;
  const form = document.createElement("form");
  form.className = "rename-form";
  const input = document.createElement("input");
  input.className = "rename-input";
  input.value = key.name || "";
  input.maxLength = 64;
  input.required = true;
  input.setAttribute("aria-label", "New passkey name");
  const save = document.createElement("button");
  save.className = "rename-save";
  save.type = "submit";
  save.textContent = "Save";
  const cancel = document.createElement("button");
  cancel.className = "rename-cancel";
  cancel.type = "button";
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => form.remove());
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run(async () => {
      await api("PATCH", "/v1/passkeys/" + encodeURIComponent(key.id), { name: input.value }, true);
      await listPasskeys();
      setStatus("Passkey renamed.");
    });
  });
  form.append(input, save, cancel);
  item.append(form);
  input.focus();
}

// Passkey autofill (WebAuthn conditional mediation): while signed out, a pending get() with
// mediation "conditional" lets the browser offer passkeys in the username field's autofill
// (autocomplete="username webauthn"). Its state is in document.body.dataset.conditional
// (unavailable, pending, signed-in, aborted, error) for people debugging and for the browser test.
let conditionalRequest = null;

function setConditionalState(state) { document.body.dataset.conditional = state; }

async function startConditionalSignIn() {
  if (conditionalRequest || accessToken) return;
  if (!window.PublicKeyCredential || !PublicKeyCredential.isConditionalMediationAvailable
      || !(await PublicKeyCredential.isConditionalMediationAvailable())) {
    setConditionalState("unavailable");
    return;
  }
  const controller = new AbortController();
  conditionalRequest = controller;
  try {
    const options = await api("POST", "/v1/passkeys/authenticate/options", {});
    setConditionalState("pending");
    const credential = await navigator.credentials.get({
      mediation: "conditional",
      signal: controller.signal,
      publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey),
    });
    conditionalRequest = null;
    await run(async () => {
      keepTokens(await api("POST", "/v1/passkeys/authenticate/verify", credential.toJSON()));
      setConditionalState("signed-in");
      setStatus("Signed in with a passkey.");
      await showSession();
    });
  } catch (e) {
    if (conditionalRequest === controller) conditionalRequest = null;
    // Not shown in the status line: the autofill request fails quietly (the buttons still work).
    document.body.dataset.conditionalError = e.name || "Error";
    setConditionalState(e.name === "AbortError" || controller.signal.aborted ? "aborted" : "error");
  }
}

// Only one WebAuthn request may be pending: the buttons' requests cancel the autofill one first.
function abortConditionalSignIn() {
  if (conditionalRequest) {
    const controller = conditionalRequest;
    conditionalRequest = null;
    controller.abort();
  }
}

async function registerPasskey(signedIn) {
  abortConditionalSignIn();
  const body = signedIn ? {} : { username: $("username").value };
  const options = await api("POST", "/v1/passkeys/register/options", body, signedIn);
  const credential = await navigator.credentials.create({
    publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options.publicKey),
  });
  const result = await api("POST", "/v1/passkeys/register/verify", credential.toJSON(), signedIn);
  keepTokens(result);
  setStatus("Passkey created.");
  await showSession();
}

async function passkeyLogin() {
  abortConditionalSignIn();
  const options = await api("POST", "/v1/passkeys/authenticate/options", {});
  const credential = await navigator.credentials.get({
    publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey),
  });
  keepTokens(await api("POST", "/v1/passkeys/authenticate/verify", credential.toJSON()));
  setStatus("Signed in with a passkey.");
  await showSession();
}

async function passwordLogin() {
  keepTokens(await api("POST", "/v1/session/password",
                       { username: $("username").value, password: $("password").value }));
  setStatus("Signed in with password.");
  await showSession();
}

async function createAccount() {
  await api("POST", "/v1/accounts", { username: $("username").value, password: $("password").value });
  await passwordLogin();
}

async function signOut() {
  try { await api("POST", "/v1/logout", undefined, true); } finally {
    accessToken = null;
    sessionStorage.removeItem("latchkey.access_token");
    showSignedOut();
    setStatus("Signed out.");
  }
}

async function run(action) {
  const buttons = document.querySelectorAll("button");
  buttons.forEach((b) => { b.disabled = true; });
  setStatus("Working…");
  try {
    await action();
  } catch (e) {
    setStatus("Error: " + e.message, true);
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  if (!window.PublicKeyCredential) setStatus("This browser has no passkey support.", true);
  $("passkey-login").addEventListener("click", () => run(passkeyLogin));
  $("password-login").addEventListener("click", () => run(passwordLogin));
  $("passkey-register").addEventListener("click", () => run(() => registerPasskey(false)));
  $("create-account").addEventListener("click", () => run(createAccount));
  $("add-passkey").addEventListener("click", () => run(() => registerPasskey(true)));
  $("sign-out").addEventListener("click", () => run(signOut));
  showSession();
});
