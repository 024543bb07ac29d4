"""Passkeys in a real browser: headless Chromium with a CTAP2 virtual authenticator (Chrome DevTools
Protocol `WebAuthn` domain) drives the page that `latchkey serve` serves at http://localhost:PORT.

Run 1: register a passkey (new account); rename it in the list (inline form, PATCH /v1/passkeys/:id) and
check the server stored the name; the list shows last use and backup state. Sign out: the page starts a
conditional (autofill) request; with the authenticator's presence simulation off it stays pending, as
while a person has not yet picked a passkey. The "Sign in with a passkey" button aborts it and signs in
(modal request). Sign out again with presence simulation on: the virtual authenticator answers the
pending conditional request with the resident credential (what picking it in the autofill list does),
and the page signs in through it.
Run 2: the authenticator stops verifying the user; the server requires user verification, so both the
autofill and the button sign-in are refused and no session exists.
Run 3: a new authenticator that cannot verify the user cannot register either.
Run 4 (a server whose step-up max age is 2 s): the signed-in view lists the account's sessions (this one marked);
another session made with the same passkey (what a second device does) is signed out from the list, a third by
"Sign out all other devices" (their refresh tokens answer invalid_grant); once the sign-in is older than the max age,
"Delete account" meets the server's insufficient_user_authentication challenge with a passkey assertion sent with the
Bearer token (the same session renewed), retries, and the account is gone; the page tells the browser its passkeys are
unknown now (WebAuthn Signal API), and Chromium's virtual authenticator drops the credential.

Not covered: the autofill dropdown itself. Headless Chromium draws no autofill UI and the virtual
authenticator resolves a conditional request at once when it holds a matching credential (and rejects
it with NotAllowedError when it holds none), so choosing a passkey from the list is stood in for by
presence simulation.

Usage: passkey_browser_test.py LATCHKEY_BINARY
"""
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

passed = failed = 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def start_server(binary, workdir, arguments=()):
    log = open(os.path.join(workdir, "serve.log"), "w+")
    proc = subprocess.Popen([binary, "serve", "--port", "0", "--database", "sqlite:" + os.path.join(workdir, "db.sqlite"),
                             *arguments],
                            stdout=subprocess.PIPE, stderr=log, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        line = proc.stdout.readline()
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line or "")
        if match:
            return proc, int(match.group(1))
        if proc.poll() is not None:
            break
    log.seek(0)
    raise RuntimeError("latchkey serve did not start: " + log.read())


class Browser:
    """A headless Chromium with one CDP virtual authenticator (resident keys, user verification)."""

    def __init__(self, user_verified):
        options = Options()
        options.binary_location = "/usr/bin/chromium"
        for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
            options.add_argument(arg)
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
        self.authenticator = self.cdp("WebAuthn.addVirtualAuthenticator", {"options": {
            "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
            "isUserVerified": user_verified, "automaticPresenceSimulation": True}})["authenticatorId"]

    def cdp(self, command, params):
        return self.driver.execute_cdp_cmd(command, params)

    def set_presence(self, enabled):
        self.cdp("WebAuthn.setAutomaticPresenceSimulation", {"authenticatorId": self.authenticator, "enabled": enabled})

    def set_user_verified(self, verified):
        self.cdp("WebAuthn.setUserVerified", {"authenticatorId": self.authenticator, "isUserVerified": verified})

    def credentials(self):
        return self.cdp("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})["credentials"]

    def quit(self):
        self.driver.quit()


def wait_for(driver, predicate, timeout=20):
    WebDriverWait(driver, timeout).until(lambda d: predicate(d))


def status(driver):
    return driver.find_element(By.ID, "status").text


def whoami(driver):
    element = driver.find_element(By.ID, "whoami")
    return element.text if element.is_displayed() else ""


def conditional(driver):
    return driver.execute_script("return document.body.dataset.conditional || ''")


def server_get(port, path, token):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {}


def server_me(port, token):
    return server_get(port, "/v1/me", token)


def token_of(driver):
    return driver.execute_script("return sessionStorage.getItem('latchkey.access_token')")


def server_post(port, path, body):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


# Another device's session with the page's passkey: an assertion whose tokens the page does not keep.
SIGN_IN_ELSEWHERE = """
const done = arguments[0];
(async () => {
  const options = await (await fetch("/v1/passkeys/authenticate/options", {method: "POST",
      headers: {"Content-Type": "application/json"}, body: "{}"})).json();
  const credential = await navigator.credentials.get({
      publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey)});
  const body = Object.assign(credential.toJSON(), {device_name: "Second device"});
  const response = await fetch("/v1/passkeys/authenticate/verify", {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  done(await response.json());
})().catch((e) => done({error: String(e)}));
"""


def sessions_shown(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#sessions li")


def run_account_life(binary, workdir):
    """Run 4: sessions listed and ended, then the account deleted through a passkey step-up."""
    run_directory = os.path.join(workdir, "run4")
    os.makedirs(run_directory)
    clock_offset = os.path.join(run_directory, "clock-offset")
    server, port = start_server(binary, run_directory, ["--clock-offset-file", clock_offset])
    browser = Browser(user_verified=True)
    driver = browser.driver
    try:
        driver.get(f"http://localhost:{port}/")
        username = "carol-" + secrets.token_hex(4)
        driver.find_element(By.ID, "username").send_keys(username)
        driver.find_element(By.ID, "passkey-register").click()
        wait_for(driver, lambda d: whoami(d).startswith("Signed in") or "Error" in status(d))
        check("run 4: account created", whoami(driver) == "Signed in as " + username, status(driver))
        wait_for(driver, lambda d: len(sessions_shown(d)) == 1)
        first = sessions_shown(driver)[0]
        check("the list shows this session, marked", first.get_attribute("data-current") == "true"
              and "This device" in first.text, first.text)

        # A second device: signed out from the list.
        other = driver.execute_async_script(SIGN_IN_ELSEWHERE)
        check("another session signed in", "refresh_token" in other, str(other))
        driver.refresh()
        wait_for(driver, lambda d: len(sessions_shown(d)) == 2)
        rows = sessions_shown(driver)
        current = [r for r in rows if r.get_attribute("data-current") == "true"]
        check("two sessions, exactly one current", len(current) == 1 and rows[0] == current[0],
              [r.text for r in rows])
        elsewhere = [r for r in rows if r.get_attribute("data-current") == "false"][0]
        check("the other session has its device name", "Second device" in elsewhere.text, elsewhere.text)
        check("'sign out all other devices' offered", driver.find_element(By.ID, "revoke-others").is_displayed())
        elsewhere.find_element(By.CSS_SELECTOR, ".end-session").click()
        wait_for(driver, lambda d: "Signed out Second device" in status(d) or "Error" in status(d))
        check("one session left after ending the other", len(sessions_shown(driver)) == 1, status(driver))
        code, body = server_post(port, "/v1/token", {"grant_type": "refresh_token", "refresh_token": other["refresh_token"]})
        check("the ended session's refresh is refused", code == 400 and body.get("error") == "invalid_grant", f"{code} {body}")

        # A third: "Sign out all other devices".
        third = driver.execute_async_script(SIGN_IN_ELSEWHERE)
        driver.refresh()
        wait_for(driver, lambda d: len(sessions_shown(d)) == 2)
        driver.find_element(By.ID, "revoke-others").click()
        wait_for(driver, lambda d: "other device" in status(d) or "Error" in status(d))
        check("all other devices signed out", status(driver) == "Signed out 1 other device."
              and len(sessions_shown(driver)) == 1, status(driver))
        code, body = server_post(port, "/v1/token", {"grant_type": "refresh_token", "refresh_token": third["refresh_token"]})
        check("the third session's refresh is refused", code == 400 and body.get("error") == "invalid_grant", f"{code} {body}")

        # Delete: the server's clock moves past the step-up max age (300 s), so the sign-in is too old and the server
        # asks for a passkey first; the step-up is then recent however slow the machine.
        with open(clock_offset + ".new", "w") as f:
            f.write("301\n")
        os.replace(clock_offset + ".new", clock_offset)
        token = token_of(driver)
        driver.find_element(By.ID, "delete-account").click()
        check("deletion asks for confirmation", driver.find_element(By.ID, "delete-confirm").is_displayed())
        driver.find_element(By.ID, "delete-confirm-button").click()
        wait_for(driver, lambda d: "deleted" in status(d) or "Error" in status(d), timeout=30)
        check("account deleted", status(driver) == "Your account has been deleted."
              and driver.find_element(By.ID, "signed-out").is_displayed(), status(driver))
        check("the step-up used the passkey once",
              driver.execute_script("return document.body.dataset.stepUps") == "1",
              driver.execute_script("return document.body.dataset.stepUps"))
        signal_error = driver.execute_script("return document.body.dataset.signalError || ''")
        check("the browser was told the passkey is gone (Signal API): the authenticator dropped it",
              signal_error == "" and browser.credentials() == [], f"{signal_error} {browser.credentials()}")
        code, _ = server_me(port, token or "")
        check("the deleted account's token is refused", code == 401, str(code))
        check("no session kept by the page", not token_of(driver))
        driver.find_element(By.ID, "passkey-login").click()
        wait_for(driver, lambda d: "Error" in status(d) or whoami(d).startswith("Signed in"))
        check("no passkey signs in any more", "Error" in status(driver) and whoami(driver) == "", status(driver))
    finally:
        browser.quit()
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def run(binary):
    with tempfile.TemporaryDirectory() as workdir:
        server, port = start_server(binary, workdir)
        base = f"http://localhost:{port}/"
        try:
            # Run 1: register, rename, sign out, sign in with the button, then through autofill.
            username = "alice-" + secrets.token_hex(4)
            browser = Browser(user_verified=True)
            driver = browser.driver
            try:
                driver.get(base)
                check("page served", driver.title.startswith("Latchkey"), driver.title)
                field = driver.find_element(By.ID, "username")
                check("username field offers passkey autofill",
                      field.get_attribute("autocomplete") == "username webauthn", field.get_attribute("autocomplete"))
                check("conditional mediation is available",
                      driver.execute_async_script(
                          "PublicKeyCredential.isConditionalMediationAvailable().then(arguments[0])") is True)
                field.send_keys(username)
                driver.find_element(By.ID, "passkey-register").click()
                wait_for(driver, lambda d: whoami(d).startswith("Signed in") or "Error" in status(d))
                check("passkey registered and signed in", whoami(driver) == "Signed in as " + username,
                      status(driver))
                check("virtual authenticator holds a resident credential",
                      any(c.get("isResidentCredential") for c in browser.credentials()))

                # Rename through the list's inline form.
                wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#passkeys li .rename"))
                details = driver.find_element(By.CSS_SELECTOR, "#passkeys li .passkey-details").text
                check("list shows creation, last use and backup state",
                      "created " in details and "never used" in details and "device-bound" in details, details)
                driver.find_element(By.CSS_SELECTOR, "#passkeys li .rename").click()
                box = driver.find_element(By.CSS_SELECTOR, "#passkeys li .rename-input")
                box.clear()
                box.send_keys("My laptop 🔑")
                driver.find_element(By.CSS_SELECTOR, "#passkeys li .rename-save").click()
                wait_for(driver, lambda d: "renamed" in status(d) or "Error" in status(d))
                shown = driver.find_element(By.CSS_SELECTOR, "#passkeys li .passkey-name").text
                check("renamed in the list", shown == "My laptop 🔑", f"{shown!r} {status(driver)}")
                code, listed = server_get(port, "/v1/passkeys", token_of(driver) or "")
                names = [p.get("name") for p in listed.get("passkeys", [])]
                check("server stored the new name", code == 200 and names == ["My laptop 🔑"], f"{code} {names}")
                driver.find_element(By.CSS_SELECTOR, "#passkeys li .rename").click()
                box = driver.find_element(By.CSS_SELECTOR, "#passkeys li .rename-input")
                box.clear()
                box.send_keys("bad\u202ename")
                driver.find_element(By.CSS_SELECTOR, "#passkeys li .rename-save").click()
                wait_for(driver, lambda d: "Error" in status(d))
                check("an unacceptable name is refused", "not allowed" in status(driver), status(driver))

                # Signed out, the autofill request waits (presence off: nobody picked a passkey yet).
                browser.set_presence(False)
                driver.find_element(By.ID, "sign-out").click()
                wait_for(driver, lambda d: d.find_element(By.ID, "signed-out").is_displayed())
                check("signed out", whoami(driver) == "")
                wait_for(driver, lambda d: conditional(d) == "pending")
                time.sleep(1)
                check("conditional request pending after sign-out",
                      conditional(driver) == "pending" and whoami(driver) == "", conditional(driver))

                # The button aborts the autofill request and runs a modal one.
                browser.set_presence(True)
                driver.find_element(By.ID, "passkey-login").click()
                wait_for(driver, lambda d: whoami(d).startswith("Signed in") or "Error" in status(d))
                check("signed in with the passkey button", whoami(driver) == "Signed in as " + username, status(driver))
                check("the button aborted the conditional request", conditional(driver) == "aborted", conditional(driver))
                token = token_of(driver)
                code, me = server_me(port, token or "")
                check("server shows the session", code == 200 and me.get("username") == username, f"{code} {me}")

                # Autofill: the pending conditional request returns the resident credential.
                driver.find_element(By.ID, "sign-out").click()
                wait_for(driver, lambda d: conditional(d) == "signed-in" or "Error" in status(d), timeout=30)
                check("signed in through autofill (conditional mediation)",
                      whoami(driver) == "Signed in as " + username and conditional(driver) == "signed-in",
                      f"{conditional(driver)} {status(driver)}")
                autofill_token = token_of(driver)
                code, me = server_me(port, autofill_token or "")
                check("autofill session is a real session", code == 200 and autofill_token != token, f"{code} {me}")
                code, listed = server_get(port, "/v1/passkeys", autofill_token or "")
                used = [p.get("last_used_at") for p in listed.get("passkeys", [])]
                check("last use recorded", code == 200 and used and used[0], f"{code} {used}")
                wait_for(driver, lambda d: "last used " in d.find_element(By.CSS_SELECTOR, "#passkeys li .passkey-details").text)
                check("list shows the last use", True)

                # Run 2: same passkey, but the authenticator no longer verifies the user.
                browser.set_user_verified(False)
                # Run 1's "signed-in" stays in the marker until the page's next conditional request ends: cleared
                # here, so the wait below sees this run's outcome, not that one (a busy machine lost that race).
                driver.execute_script("delete document.body.dataset.conditional")
                driver.find_element(By.ID, "sign-out").click()
                wait_for(driver, lambda d: conditional(d) in ("error", "signed-in") or "Error" in status(d))
                check("autofill sign-in without user verification refused",
                      whoami(driver) == "" and not token_of(driver), f"{conditional(driver)} {status(driver)}")
                driver.find_element(By.ID, "passkey-login").click()
                wait_for(driver, lambda d: "Error" in status(d) or whoami(d).startswith("Signed in"))
                check("sign-in without user verification refused", "Error" in status(driver) and whoami(driver) == "",
                      status(driver))
                check("no session after the refused sign-in", not token_of(driver))
            finally:
                browser.quit()

            # Run 3: a new authenticator that cannot verify the user cannot register either.
            browser = Browser(user_verified=False)
            driver = browser.driver
            try:
                driver.get(base)
                driver.find_element(By.ID, "username").send_keys("bob-" + secrets.token_hex(4))
                driver.find_element(By.ID, "passkey-register").click()
                wait_for(driver, lambda d: "Error" in status(d) or whoami(d).startswith("Signed in"))
                check("registration without user verification refused", "Error" in status(driver), status(driver))
            finally:
                browser.quit()
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
        run_account_life(binary, workdir)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(64)
    try:
        run(sys.argv[1])
    except Exception as error:  # a crash of the harness is a failure, with its reason
        failed += 1
        print(f"FAIL browser test harness: {error!r}")
    print(f"browser: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
