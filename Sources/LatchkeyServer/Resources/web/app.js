// Latchkey sign-in page: passkeys (WebAuthn Level 3 JSON helpers) and passwords. No framework, no CDN.
"use strict";

const $ = (id) => document.getElementById(id);
let accessToken = sessionStorage.getItem("latchkey.access_token");
let relyingPartyID = null;   // the server's, from the last WebAuthn options

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
    const error = new Error(json.error_description || json.error || ("HTTP " + response.status));
    error.status = response.status;
    error.code = json.error;
    error.maxAge = json.max_age;
    throw error;
  }
  return json;
}

// Step-up (RFC 9470): a route that needs a recent sign-in answers 401 insufficient_user_authentication. The page signs
// in again with the access token as the Bearer — the passkey when the account has one, else the password — so the
// server renews this same session, and sends the request once more.
async function withStepUp(request) {
  try {
    return await request();
  } catch (e) {
    if (e.code !== "insufficient_user_authentication") throw e;
    await reauthenticate();
    return await request();
  }
}

async function reauthenticate() {
  setStatus("Confirm it's you…");
  const me = await api("GET", "/v1/me", undefined, true);
  if ((me.sign_in_methods || []).includes("passkey")) {
    abortConditionalSignIn();
    const options = await api("POST", "/v1/passkeys/authenticate/options", {});
    const credential = await navigator.credentials.get({
      publicKey: requestOptions(options),
    });
    keepTokens(await api("POST", "/v1/passkeys/authenticate/verify", credential.toJSON(), true));
  } else {
    const password = await askPassword();
    keepTokens(await api("POST", "/v1/session/password", { username: me.username, password }, true));
  }
  document.body.dataset.stepUps = String(Number(document.body.dataset.stepUps || "0") + 1);
}

// The password form of a step-up: resolves with what the user typed, rejects when they cancel.
function askPassword() {
  return new Promise((resolve, reject) => {
    const form = $("reauth");
    const field = $("reauth-password");
    form.hidden = false;
    form.querySelectorAll("button").forEach((b) => { b.disabled = false; });
    field.value = "";
    field.focus();
    const finish = () => {
      form.hidden = true;
      form.onsubmit = null;
      $("reauth-cancel").onclick = null;
    };
    form.onsubmit = (event) => {
      event.preventDefault();
      const password = field.value;
      field.value = "";
      finish();
      resolve(password);
    };
    $("reauth-cancel").onclick = () => {
      finish();
      reject(new Error("Canceled."));
    };
  });
}

// The server's WebAuthn options as the browser takes them; the relying party is remembered for the Signal API.
function requestOptions(options) {
  relyingPartyID = options.publicKey.rpId || relyingPartyID;
  return PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey);
}

function creationOptions(options) {
  relyingPartyID = (options.publicKey.rp && options.publicKey.rp.id) || relyingPartyID;
  return PublicKeyCredential.parseCreationOptionsFromJSON(options.publicKey);
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
    await listSessions();
  } catch (e) {
    forgetSession();
    showSignedOut();
  }
}

function forgetSession() {
  accessToken = null;
  sessionStorage.removeItem("latchkey.access_token");
}

function showSignedOut({ autofill = true } = {}) {
  $("delete-confirm").hidden = true;
  $("reauth").hidden = true;
  $("signed-in").hidden = true;
  $("signed-out").hidden = false;
  $("whoami").textContent = "";
  if (autofill) startConditionalSignIn();
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

const methodNames = { password: "password", passkey: "passkey", apple: "Sign in with Apple" };

// The account's sessions (one per signed-in device): this one first and marked, a "Sign out" button each.
async function listSessions() {
  const list = $("sessions");
  list.replaceChildren();
  const result = await api("GET", "/v1/sessions", undefined, true);
  const sessions = result.sessions || [];
  for (const session of sessions) {
    const item = document.createElement("li");
    item.dataset.id = session.id;
    item.dataset.current = session.current ? "true" : "false";
    const name = document.createElement("strong");
    name.className = "session-name";
    name.textContent = session.device_name || "Unknown device";
    item.append(name);
    if (session.current) {
      const mark = document.createElement("span");
      mark.className = "session-current";
      mark.textContent = "This device";
      item.append(mark);
    }
    const end = document.createElement("button");
    end.className = "end-session";
    end.type = "button";
    end.textContent = session.current ? "Sign out this device" : "Sign out";
    end.addEventListener("click", () => run(() => endSession(session, name.textContent)));
    const details = document.createElement("div");
    details.className = "session-details";
    const parts = [];
    if (session.sign_in_method) parts.push("signed in with " + (methodNames[session.sign_in_method] || session.sign_in_method));
    parts.push("last active " + new Date(session.last_used_at * 1000).toLocaleString());
    if (session.client_address) parts.push(session.client_address);
    details.textContent = parts.join(" · ");
    item.append(end, details);
    list.append(item);
  }
  $("revoke-others").hidden = !sessions.some((s) => !s.current);
}

async function endSession(session, name) {
  await api("DELETE", "/v1/sessions/" + encodeURIComponent(session.id), undefined, true);
  if (session.current) {
    forgetSession();
    showSignedOut();
    setStatus("Signed out.");
    return;
  }
  await listSessions();
  setStatus("Signed out " + name + ".");
}

async function revokeOtherSessions() {
  const result = await api("POST", "/v1/sessions/revoke-others", undefined, true);
  await listSessions();
  setStatus("Signed out " + result.ended + " other device" + (result.ended === 1 ? "." : "s."));
}

async function deleteAccount() {
  $("delete-confirm").hidden = true;
  const passkeyIDs = [...document.querySelectorAll("#passkeys li")].map((item) => item.dataset.id);
  await withStepUp(() => api("DELETE", "/v1/me", undefined, true));
  forgetSession();
  await forgetPasskeys(passkeyIDs);
  // No autofill request now: the deleted account's passkey may still be offered by this device.
  showSignedOut({ autofill: false });
  setStatus("Your account has been deleted.");
}

// Tells the device's passkey manager that the deleted account's passkeys are gone (WebAuthn Signal API, where the
// browser has it), so it stops offering them. Best effort: the server refuses them anyway.
async function forgetPasskeys(ids) {
  if (!window.PublicKeyCredential || !PublicKeyCredential.signalUnknownCredential) return;
  for (const id of ids) {
    try {
      await PublicKeyCredential.signalUnknownCredential({ rpId: relyingPartyID || location.hostname, credentialId: id });
    } catch (e) {
      document.body.dataset.signalError = e.name || "Error";
    }
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
      publicKey: requestOptions(options),
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
    publicKey: creationOptions(options),
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
    publicKey: requestOptions(options),
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
    forgetSession();
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
  $("revoke-others").addEventListener("click", () => run(revokeOtherSessions));
  $("delete-account").addEventListener("click", () => { $("delete-confirm").hidden = false; });
  $("delete-cancel").addEventListener("click", () => { $("delete-confirm").hidden = true; });
  $("delete-confirm-button").addEventListener("click", () => run(deleteAccount));
  showSession();
});
