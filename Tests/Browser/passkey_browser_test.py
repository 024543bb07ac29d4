"""Passkeys in a real browser: headless Chromium with a CTAP2 virtual authenticator drives the page that
`latchkey serve` serves at http://localhost:PORT.

Run 1: register a passkey (new account), sign out, sign in with the passkey; the server's /v1/me shows
the session. Run 2: the authenticator stops verifying the user; the server requires user verification,
so the sign-in is refused and no session exists.

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
from selenium.webdriver.common.virtual_authenticator import Protocol, Transport, VirtualAuthenticatorOptions
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


def start_server(binary, workdir):
    log = open(os.path.join(workdir, "serve.log"), "w+")
    proc = subprocess.Popen([binary, "serve", "--port", "0", "--database", "sqlite:" + os.path.join(workdir, "db.sqlite")],
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


def make_driver(user_verified):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.add_virtual_authenticator(VirtualAuthenticatorOptions(
        protocol=Protocol.CTAP2, transport=Transport.INTERNAL, has_resident_key=True,
        has_user_verification=True, is_user_consenting=True, is_user_verified=user_verified))
    return driver


def wait_for(driver, predicate, timeout=20):
    WebDriverWait(driver, timeout).until(lambda d: predicate(d))


def status(driver):
    return driver.find_element(By.ID, "status").text


def whoami(driver):
    element = driver.find_element(By.ID, "whoami")
    return element.text if element.is_displayed() else ""


def server_me(port, token):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/me", headers={"Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {}


def run(binary):
    with tempfile.TemporaryDirectory() as workdir:
        server, port = start_server(binary, workdir)
        base = f"http://localhost:{port}/"
        try:
            # Run 1: register, sign out, sign in with the passkey.
            username = "alice-" + secrets.token_hex(4)
            driver = make_driver(user_verified=True)
            try:
                driver.get(base)
                check("page served", driver.title.startswith("Latchkey"), driver.title)
                driver.find_element(By.ID, "username").send_keys(username)
                driver.find_element(By.ID, "passkey-register").click()
                wait_for(driver, lambda d: whoami(d).startswith("Signed in") or "Error" in status(d))
                check("passkey registered and signed in", whoami(driver) == "Signed in as " + username,
                      status(driver))
                check("virtual authenticator holds a resident credential",
                      any(c.is_resident_credential for c in driver.get_credentials()))
                driver.find_element(By.ID, "sign-out").click()
                wait_for(driver, lambda d: d.find_element(By.ID, "signed-out").is_displayed())
                check("signed out", whoami(driver) == "")
                driver.find_element(By.ID, "passkey-login").click()
                wait_for(driver, lambda d: whoami(d).startswith("Signed in") or "Error" in status(d))
                check("signed in with the passkey", whoami(driver) == "Signed in as " + username, status(driver))
                token = driver.execute_script("return sessionStorage.getItem('latchkey.access_token')")
                code, me = server_me(port, token or "")
                check("server shows the session", code == 200 and me.get("username") == username, f"{code} {me}")

                # Run 2: same passkey, but the authenticator no longer verifies the user.
                driver.find_element(By.ID, "sign-out").click()
                wait_for(driver, lambda d: d.find_element(By.ID, "signed-out").is_displayed())
                driver.set_user_verified(False)
                driver.find_element(By.ID, "passkey-login").click()
                wait_for(driver, lambda d: "Error" in status(d) or whoami(d).startswith("Signed in"))
                check("sign-in without user verification refused", "Error" in status(driver) and whoami(driver) == "",
                      status(driver))
                token = driver.execute_script("return sessionStorage.getItem('latchkey.access_token')")
                check("no session after the refused sign-in", not token)
            finally:
                driver.quit()

            # A new authenticator that cannot verify the user cannot register either.
            driver = make_driver(user_verified=False)
            try:
                driver.get(base)
                driver.find_element(By.ID, "username").send_keys("bob-" + secrets.token_hex(4))
                driver.find_element(By.ID, "passkey-register").click()
                wait_for(driver, lambda d: "Error" in status(d) or whoami(d).startswith("Signed in"))
                check("registration without user verification refused", "Error" in status(driver), status(driver))
            finally:
                driver.quit()
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


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
