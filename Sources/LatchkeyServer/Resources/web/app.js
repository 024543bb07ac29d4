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
}

async function listPasskeys() {
  const list = $("passkeys");
  list.replaceChildren();
  const result = await api("GET", "/v1/passkeys", undefined, true);
  for (const key of result.passkeys || []) {
    const item = document.createElement("li");
    item.textContent = (key.name || "Passkey") + " — created " + key.created_at;
    const remove = document.createElement("button");
    remove.textContent = "Delete";
    remove.addEventListener("click", () => run(async () => {
      await api("DELETE", "/v1/passkeys/" + encodeURIComponent(key.id), undefined, true);
      await listPasskeys();
      setStatus("Passkey deleted.");
    }));
    item.append(remove);
    list.append(item);
  }
}

async function registerPasskey(signedIn) {
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
