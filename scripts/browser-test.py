#!/usr/bin/env python3
"""The web front end in a real browser: Debian's Chromium, headless, driven by Playwright from
PyPI (pointed at the system Chromium; no browser download). Starts the server on its embedded
data, checks each screen against the API and with axe-core (accessibility), writes screenshots,
and prints the timings measured in the page (Performance API). Exits 1 when a check fails.

    scripts/browser-test.py [--binary .build/debug/server] [--shots docs/screenshots]
"""
import argparse
import csv
import datetime
import importlib.resources
import io
import json
import re
import shutil
import sys
import tempfile
import time
import traceback
import urllib.parse

from playwright.sync_api import sync_playwright

from serverprocess import ORDER, call, start

LOCALE, ZONE = "en-US", "Europe/Berlin"


class Browser:
    """One server, one Chromium; pages that record console errors and failed requests."""

    def __init__(self, playwright, binary):
        self.binary, self.state = binary, tempfile.mkdtemp(prefix="browser-test-")
        self.server, self.port = start(binary, self.state)
        self.base = f"http://127.0.0.1:{self.port}"
        self.chromium = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox", "--disable-gpu"])
        self.problems = []
        self.expected_refusals = set()  # statuses a check provokes on purpose

    def page(self, width=1280, height=800, locale=LOCALE, zone=ZONE, color_scheme="light"):
        context = self.chromium.new_context(viewport={"width": width, "height": height}, locale=locale, timezone_id=zone,
                                            color_scheme=color_scheme)
        page = context.new_page()
        page.on("console", lambda m: m.type in ("error", "warning") and not self.is_expected(m.text)
                and self.problems.append(f"console {m.type}: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        # The page closes its own streams when the criteria change: those aborts are expected;
        # so are connections refused while a check has the server down (0 in the refusals).
        page.on("requestfailed", lambda r: None if (r.failure == "net::ERR_ABORTED" and "/live" in r.url)
                or (0 in self.expected_refusals and r.failure == "net::ERR_CONNECTION_REFUSED")
                else self.problems.append(f"request failed: {r.url} {r.failure}"))
        page.on("response", lambda r: r.status >= 400 and r.status not in self.expected_refusals
                and self.problems.append(f"answer {r.status}: {r.url}"))
        return page

    def is_expected(self, console_text):
        # Chromium logs every answer >= 400 to the console, the refusals a check provokes too
        # (0: the connections refused while a check has the server down).
        return any(f"status of {status} " in console_text for status in self.expected_refusals if status) or (
            0 in self.expected_refusals and "ERR_CONNECTION_REFUSED" in console_text)

    def restart(self):
        """Stops the server and starts it again on the same port and state directory."""
        self.server.terminate()
        self.server.wait()
        self.server, _ = start(self.binary, self.state, self.port)

    def api(self, method, path, body=None, headers=None):
        status, _, payload = call(self.port, method, path, body, headers)
        return status, json.loads(payload) if payload else None

    def rows(self, path, **params):
        query = urllib.parse.urlencode({"locale": LOCALE, "tz": ZONE, **params})
        status, body = self.api("GET", f"{path}?{query}")
        assert status == 200, (path, status, body)
        return body

    def close(self):
        self.chromium.close()
        self.server.terminate()
        self.server.wait()
        shutil.rmtree(self.state, ignore_errors=True)


# What the page shows of each row, read from the DOM.
ORDER_ROWS = """() => [...document.querySelectorAll('ol.rows > li[data-id]')].map(li => ({
  id: li.dataset.id, title: li.querySelector('.title').textContent, customer: li.querySelector('.customer').textContent,
  total: li.querySelector('.total').textContent, meta: li.querySelector('.meta').textContent,
  badges: [...li.querySelectorAll('.badge')].map(b => b.textContent)}))"""


def expect_orders(page, api_body):
    """The page's order rows are the API's rows, in its order, with its display text."""
    shown = page.evaluate(ORDER_ROWS)
    items = api_body["items"]
    assert [row["id"] for row in shown] == [item["id"] for item in items], "row order differs from the API's"
    for row, item in zip(shown, items):
        assert row["title"] == item["title"] and row["customer"] == item["customerName"], row
        assert row["total"] == item["formattedTotal"], (row, item["formattedTotal"])
        assert row["meta"] == f"{item['formattedDate']} · {item['shippingLabel']}", row
        assert item["statusLabel"] in row["badges"], row


def wait_rows(page, expected_ids, timeout=5000):
    page.wait_for_function("ids => JSON.stringify([...document.querySelectorAll('ol.rows > li[data-id]')].map(li => li.dataset.id)) === JSON.stringify(ids)",
                           arg=expected_ids, timeout=timeout)


def ids(body):
    return [item["id"] for item in body["items"]]


def bearer(browser, who):
    """The Authorization header of a demo token for `who` (an identity of /auth/demo)."""
    status, answer = browser.api("POST", "/auth/demo", {"sub": who["sub"], "role": who["role"]})
    assert status == 200, status
    return {"Authorization": f"Bearer {answer['token']}"}


def check_orders_match_api(browser, timings):
    page = browser.page()
    page.goto(f"{browser.base}/#/orders?filter=pending")
    expected = browser.rows("/orders", filter="pending", limit=50)
    wait_rows(page, ids(expected))
    expect_orders(page, expected)
    assert page.text_content(".count") == f"{expected['total']:,} orders"
    assert page.text_content("#live") == "Live"
    page.context.close()


FIRST_ROWS = "() => performance.getEntriesByName('listservice:rows:orders')[0].startTime"


def check_retries_a_refused_stream(browser, timings):
    """A second server that holds one live stream: a page that finds it taken is refused 503
    (with Retry-After), says so, and gets in by itself once the stream is free."""
    server, port = start(browser.binary, options=["--max-live-streams", "1"])
    try:
        base = f"http://127.0.0.1:{port}"
        holder = browser.page()
        holder.goto(f"{base}/#/orders")
        holder.wait_for_selector("ol.rows > li[data-id]")
        browser.expected_refusals.add(503)
        page = browser.page()
        page.goto(f"{base}/#/users")
        page.wait_for_function("() => document.querySelector('#live').dataset.state === 'reconnecting'", timeout=5000)
        assert page.query_selector("ol.rows > li[data-id]") is None
        holder.context.close()
        freed = time.monotonic()
        page.wait_for_selector("ol.rows > li[data-id]", timeout=20000)
        page.wait_for_function("() => document.querySelector('#live').textContent === 'Live'")
        timings["stream freed → refused page live (s; the server asked for 5 s, jittered)"] = round(time.monotonic() - freed, 1)
        page.context.close()
    finally:
        server.terminate()
        server.wait()


def measure_first_rows(browser, timings):
    """Navigation start → the first rows in the DOM (the page's own mark), 8 times in a new
    browser context (nothing cached) and after a reload (assets cached, each list a new one)."""
    cold, warm = [], []
    for round_number in range(8):
        page = browser.page()
        page.goto(f"{browser.base}/#/orders?filter=pending&q={round_number}")
        page.wait_for_function("() => performance.getEntriesByName('listservice:rows:orders').length > 0")
        cold.append(page.evaluate(FIRST_ROWS))
        page.goto(f"{browser.base}/#/orders?filter=completed&q={round_number}")
        page.reload()
        page.wait_for_function("() => performance.getEntriesByName('listservice:rows:orders').length > 0")
        warm.append(page.evaluate(FIRST_ROWS))
        page.context.close()
    # Navigating while the browser still fetches the favicon aborts that fetch: expected here.
    browser.problems[:] = [problem for problem in browser.problems if not problem.endswith("net::ERR_ABORTED")]
    for name, values in (("nothing cached", cold), ("reload", warm)):
        values.sort()
        timings[f"first rows visible, {name}, 8 loads (ms after navigation start): median / max"] = (
            f"{(values[3] + values[4]) / 2:.0f} / {values[-1]:.0f}")


def check_search_filter_sort_and_reload(browser, timings):
    page = browser.page()
    page.goto(f"{browser.base}/#/orders")
    wait_rows(page, ids(browser.rows("/orders", limit=50)))
    page.fill("input[type=search]", "john")
    wait_rows(page, ids(browser.rows("/orders", q="john", limit=50)))
    assert browser.rows("/orders", q="john")["total"] < browser.rows("/orders")["total"], "the search did not narrow"
    page.click("button.chip[data-value=completed]")
    wait_rows(page, ids(browser.rows("/orders", q="john", filter="completed", limit=50)))
    page.select_option("label.picker select", "total")
    page.click("button.direction")
    expected = browser.rows("/orders", q="john", filter="completed", sort="total", order="asc", limit=50)
    wait_rows(page, ids(expected))
    expect_orders(page, expected)
    fragment = urllib.parse.urlsplit(page.url).fragment
    assert fragment.startswith("/orders?"), fragment
    assert dict(urllib.parse.parse_qsl(fragment.split("?", 1)[1])) == {"q": "john", "filter": "completed", "sort": "total", "order": "asc"}, fragment
    page.reload()
    wait_rows(page, ids(expected))
    assert page.input_value("input[type=search]") == "john"
    assert page.get_attribute("button.chip[data-value=completed]", "aria-pressed") == "true"
    assert page.input_value("label.picker select") == "total"
    page.context.close()


def check_load_more_and_empty(browser, timings):
    page = browser.page()
    page.goto(f"{browser.base}/#/orders?sort=customer&order=asc")
    first = browser.rows("/orders", sort="customer", order="asc", limit=50)
    wait_rows(page, ids(first))
    page.evaluate(MARK)
    page.click("button.more")
    wait_rows(page, ids(browser.rows("/orders", sort="customer", order="asc", limit=100)))
    assert ids(browser.rows("/orders", sort="customer", order="asc", limit=50, cursor=first["nextCursor"])) == ids(browser.rows("/orders", sort="customer", order="asc", limit=100))[50:]
    assert page.evaluate(UNMARKED) == ids(browser.rows("/orders", sort="customer", order="asc", limit=100))[50:], "the first page's rows were rebuilt"
    # The widened window is live: a new customer sorting first enters at the top.
    status, order = browser.api("POST", "/orders", {**ORDER, "customerName": "Aaaron Aardvark"})
    assert status == 201
    page.wait_for_function("id => document.querySelector('ol.rows > li[data-id]').dataset.id === id", arg=order["id"], timeout=1000)
    assert page.evaluate("() => document.querySelectorAll('ol.rows > li[data-id]').length") == 100
    page.fill("input[type=search]", "no such customer anywhere")
    page.wait_for_function("() => document.querySelector('.state:not([hidden])')?.textContent === 'No orders match.'", timeout=3000)
    assert page.evaluate("() => document.querySelectorAll('ol.rows > li[data-id]').length") == 0
    assert page.text_content(".count") == "0 orders" and page.is_hidden("button.more"), (page.text_content(".count"), page.is_hidden("button.more"))
    page.context.close()


def check_a_page_for_other_criteria_is_dropped(browser, timings):
    """"Load more" answered after a chip changed the criteria: its rows are the old criteria's,
    and the list does not take them."""
    page = browser.page()
    page.goto(f"{browser.base}/#/orders")
    wait_rows(page, ids(browser.rows("/orders", limit=50)))
    held = []

    def hold_the_next_page(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(lambda url: "/orders?" in url and "cursor=" in url, hold_the_next_page)
    page.click("button.more")
    page.wait_for_timeout(200)
    assert len(held) == 1, "the next page's GET was not seen"
    completed = ids(browser.rows("/orders", filter="completed", limit=50))
    page.click("button.chip[data-value=completed]")
    wait_rows(page, completed, timeout=3000)
    with page.expect_response(lambda r: "cursor=" in r.url, timeout=2000):
        held[0].continue_()
    page.wait_for_timeout(500)  # the old page's rows, taken, and a window widened for them, would show by now
    wait_rows(page, completed, timeout=1000)
    assert page.is_enabled("button.more"), "Load more stayed disabled"
    page.context.close()


MARK = "() => document.querySelectorAll('ol.rows > li[data-id]').forEach((li, i) => { li.listServiceMark = i; })"
UNMARKED = "() => [...document.querySelectorAll('ol.rows > li[data-id]')].filter(li => li.listServiceMark === undefined).map(li => li.dataset.id)"


def check_live_write_keeps_other_nodes(browser, timings):
    page = browser.page()
    page.goto(f"{browser.base}/#/orders")
    wait_rows(page, ids(browser.rows("/orders", limit=50)))
    page.evaluate(MARK)
    status, order = browser.api("POST", "/orders", ORDER)
    assert status == 201, status
    written = time.monotonic()
    page.wait_for_function("id => document.querySelector(`ol.rows > li[data-id='${id}']`)", arg=order["id"], timeout=1000)
    timings["order created → its row in the page (ms, measured by the test)"] = round((time.monotonic() - written) * 1000, 1)
    expected = browser.rows("/orders", limit=50)
    wait_rows(page, ids(expected))
    assert page.evaluate(UNMARKED) == [order["id"]], "rows other than the new one were rebuilt"
    # A change to one row: the same node, new content.
    pending = next(item for item in expected["items"] if item["status"] == "pending" and item["id"] != order["id"])
    status, _ = browser.api("POST", f"/orders/{pending['id']}/complete")
    assert status == 200, status
    page.wait_for_function("id => document.querySelector(`li[data-id='${id}'] .badge.status-completed`)", arg=pending["id"], timeout=1000)
    assert page.evaluate(UNMARKED) == [order["id"]], "an update replaced nodes"
    page.context.close()


def check_chip_counts_change_live(browser, timings):
    """Each filter chip shows the server's count for the current search, and a write moves it live."""
    page = browser.page()
    page.goto(f"{browser.base}/#/orders")
    counts = browser.rows("/orders", limit=1)["formattedCounts"]
    chip = "value => document.querySelector(`.chip[data-value='${value}'] .chip-count`)?.textContent"
    page.wait_for_function(f"c => ({chip})('pending') === c", arg=counts["pending"], timeout=5000)
    assert page.evaluate(f"({chip})('all')") == counts["all"], "the All chip shows the list's count"
    status, _ = browser.api("POST", "/orders", ORDER)
    assert status == 201, status
    after = browser.rows("/orders", limit=1)["formattedCounts"]
    assert after["pending"] != counts["pending"], (counts, after)
    page.wait_for_function(f"c => ({chip})('pending') === c", arg=after["pending"], timeout=2000)
    assert page.evaluate(f"({chip})('all')") == after["all"]
    page.context.close()


def check_sections_group_by_and_sticky_headers(browser, timings):
    """Group by: the headers the API's sections name, before their first rows, sticky, with
    their counts and summaries; another grouping brings its own sort."""
    page = browser.page()
    page.goto(f"{browser.base}/#/orders?group=day")
    expected = browser.rows("/orders", group="day", limit=50)
    wait_rows(page, ids(expected))
    headers = "() => [...document.querySelectorAll('ol.rows > li.section-header')].map(h => ({key: h.dataset.key, text: h.textContent, next: h.nextElementSibling?.dataset.section}))"
    page.wait_for_function(f"() => ({headers})().length > 0", timeout=2000)
    shown = page.evaluate(headers)
    in_window = []
    for item in expected["items"]:
        if item["sectionKey"] not in in_window:
            in_window.append(item["sectionKey"])
    assert [h["key"] for h in shown] == in_window, (shown, in_window)
    assert all(h["key"] == h["next"] for h in shown), "each header sits before its section's first row"
    first = expected["sections"][0]
    for part in (first["title"], first["formattedCount"], first["summary"]):
        assert part in shown[0]["text"], (part, shown[0]["text"])
    assert page.evaluate("() => getComputedStyle(document.querySelector('li.section-header')).position") == "sticky"
    page.select_option("label.picker:has-text('Group by') select", "status")
    by_status = browser.rows("/orders", group="status", sort="status", limit=50)
    wait_rows(page, ids(by_status))
    page.wait_for_function("t => document.querySelector('li.section-header h3')?.textContent === t",
                           arg=by_status["sections"][0]["title"], timeout=2000)
    assert page.locator("label.picker:has-text('Sort by') select").input_value() == "status"
    assert "group=status" in page.url and "sort=status" in page.url, page.url
    page.context.close()


def check_people_index_jumps(browser, timings):
    """The people list's A–Z index: one button per section; one beyond the window opens the
    list at that section, its header at the top."""
    page = browser.page()
    page.goto(f"{browser.base}/#/users")
    expected = browser.rows("/users", group="initial", limit=50)
    wait_rows(page, ids(expected))
    letters = [section["title"] for section in expected["sections"]]
    page.wait_for_function("n => document.querySelectorAll('nav.section-index button').length === n", arg=len(letters), timeout=2000)
    assert page.evaluate("() => [...document.querySelectorAll('nav.section-index button')].map(b => b.textContent)") == letters
    target = expected["sections"][-1]
    assert target["firstIndex"] >= 50, "the last letter lies beyond the first window"
    page.click(f"nav.section-index button[data-key='{target['key']}']")
    jumped = browser.rows("/users", group="initial", limit=50, cursor=target["cursor"])
    wait_rows(page, ids(jumped))
    assert page.evaluate("() => document.querySelector('ol.rows > li').dataset.key") == target["key"]
    top = page.evaluate(f"() => document.querySelector(\"li.section-header[data-key='{target['key']}']\").getBoundingClientRect().top")
    assert 0 <= top < 800, f"the section's header is in view ({top})"
    page.context.close()


def check_deep_link_lands_on_its_row(browser, timings):
    """`#/orders?around=<id>` opens the list at that order, highlighted and in view."""
    target = browser.rows("/orders", limit=1, offset=439)["items"][0]["id"]
    page = browser.page()
    page.goto(f"{browser.base}/#/orders?around={target}")
    expected = browser.rows("/orders", limit=50, around=target)
    wait_rows(page, ids(expected))
    row = f"li[data-id='{target}']"
    page.wait_for_selector(f"{row}.highlight", timeout=2000)
    box = page.evaluate(f"() => document.querySelector(\"{row}\").getBoundingClientRect().toJSON()")
    assert 0 <= box["top"] and box["bottom"] <= 800, f"the linked row is in view: {box}"
    assert expected["index"] > 0 and page.evaluate(f"() => document.querySelector(\"{row}\").getAttribute('aria-current')") == "true"
    page.context.close()


def check_complete_and_refusal(browser, timings):
    """A pending order offers Complete and Cancel, and completing it takes it off the pending
    page; a completed or cancelled order offers neither (the rows' `canComplete` and
    `canCancel`), though the API still refuses a forced one (409). A customer's own pending
    order offers Cancel only, in its row and in the bulk bar once selected; a cancel that
    staff's completion overtakes shows the server's problem and changes nothing."""
    page = browser.page()
    page.goto(f"{browser.base}/#/orders?filter=pending")
    expected = browser.rows("/orders", filter="pending", limit=50)
    wait_rows(page, ids(expected))
    target = expected["items"][0]["id"]
    assert page.locator(f"li[data-id='{target}'] button[data-action]").count() == 2
    page.click(f"li[data-id='{target}'] button[data-action=complete]")
    page.wait_for_function("id => !document.querySelector(`li[data-id='${id}']`)", arg=target, timeout=2000)
    assert browser.api("GET", f"/orders/{target}")[1]["status"] == "completed"
    for status in ("cancelled", "completed"):
        page.evaluate(f"() => {{ location.hash = '#/orders?filter={status}'; }}")
        shown = browser.rows("/orders", filter=status, limit=50)
        wait_rows(page, ids(shown))
        assert page.locator("ol.rows > li[data-id] button[data-action]").count() == 0, f"a {status} order offers no action"
        assert all(not row["canComplete"] and not row["canCancel"] for row in shown["items"])
    victim = shown["items"][0]["id"]
    assert browser.api("POST", f"/orders/{victim}/cancel")[0] == 409
    page.context.close()

    _, demo = browser.api("GET", "/auth/demo")
    customer = next(who for who in demo["identities"] if who["role"] == "customer")
    staff = next(who for who in demo["identities"] if who["role"] == "staff")
    own = browser.api("GET", "/orders?filter=pending&limit=50", headers=bearer(browser, customer))[1]
    page = browser.page()
    page.goto(f"{browser.base}/#/orders?filter=pending")
    wait_rows(page, ids(browser.rows("/orders", filter="pending", limit=50)))
    sign_in(page, customer)
    wait_rows(page, ids(own))
    mine = own["items"][0]["id"]
    actions = page.eval_on_selector_all(f"li[data-id='{mine}'] button[data-action]", "buttons => buttons.map(b => b.dataset.action)")
    assert actions == ["cancel"], actions
    # Selected, it enables only the bulk actions the row allows (its `can…` flags).
    page.click(f"li[data-id='{mine}'] > input.select")
    enabled = page.eval_on_selector_all("button[data-bulk]", "buttons => buttons.filter(b => !b.disabled).map(b => b.dataset.bulk)")
    assert enabled == ["cancel"], enabled
    page.click(f"li[data-id='{mine}'] > input.select")

    def completed_first(route):
        status, _ = browser.api("POST", f"/orders/{mine}/complete", headers=bearer(browser, staff))
        assert status == 200, status
        route.continue_()

    browser.expected_refusals.update({409, 412})
    page.route(f"**/orders/{mine}/cancel", completed_first)
    with page.expect_response(lambda response: response.url.endswith(f"/orders/{mine}/cancel")) as answer:
        page.click(f"li[data-id='{mine}'] button[data-action=cancel]")
    assert answer.value.status in (409, 412), answer.value.status
    page.wait_for_selector("p.notice:not([hidden])", timeout=2000)
    notice = page.text_content("p.notice")
    assert answer.value.json()["detail"] in notice, notice
    assert browser.api("GET", f"/orders/{mine}")[1]["status"] == "completed"
    page.context.close()


def check_task_form(browser, timings):
    page = browser.page()
    page.goto(f"{browser.base}/#/tasks")
    wait_rows(page, ids(browser.rows("/tasks", limit=50)))
    browser.expected_refusals.add(422)
    page.click("form.add button[type=submit]")
    page.wait_for_function("() => document.querySelector('#task-title-error').textContent !== ''", timeout=2000)
    status, problem = browser.api("POST", "/tasks", {"title": ""})
    assert status == 422
    title_error = next(e["detail"] for e in problem["errors"] if e["field"] == "title")
    assert page.text_content("#task-title-error") == title_error
    assert page.get_attribute("#task-title", "aria-invalid") == "true"
    page.fill("#task-title", "Browser test task")
    page.select_option("#task-priority", "urgent")
    page.fill("#task-dueDate", "2026-01-02")
    page.click("form.add button[type=submit]")
    page.wait_for_selector("p.notice[data-kind=success]:not([hidden])", timeout=2000)
    found = browser.rows("/tasks", q="Browser test task")
    assert found["total"] == 1 and found["items"][0]["priority"] == "urgent", found
    page.context.close()


def quake_day(browser):
    """A day with plenty of quakes in the embedded data: today in UTC, or yesterday in the first
    hours after midnight UTC, when today has only a few. (Today in the test's zone, Berlin, is
    already tomorrow between 23:00 and 24:00 UTC, and has none yet.)"""
    today = browser.rows("/quakes", tz="UTC", limit=1)
    if today["total"] >= 10:
        return today["criteria"]["date"]
    return (datetime.date.fromisoformat(today["criteria"]["date"]) - datetime.timedelta(days=1)).isoformat()


# The ids a page marks selected, rows and markers alike, in document order.
SELECTED_IDS = "() => [...document.querySelectorAll('.selected')].map(n => n.dataset.id)"


def session_selection(browser, page, day):
    """The quake selected in the session the page's cookie names, as the server holds it."""
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
    return browser.api("GET", f"/quakes?limit=1&date={day}", headers={"Cookie": cookie})[1]["selectedId"]


def check_quakes_list_and_map(browser, timings):
    page = browser.page()
    day = quake_day(browser)
    page.goto(f"{browser.base}/#/quakes?date={day}")
    expected = browser.rows("/quakes", date=day, limit=500)
    wait_rows(page, ids(expected))
    page.wait_for_function("n => document.querySelectorAll('svg.map circle.marker').length === n", arg=expected["total"], timeout=3000)
    map_ids = page.evaluate("() => [...document.querySelectorAll('svg.map circle.marker')].map(c => c.dataset.id)")
    assert sorted(map_ids) == sorted(ids(expected)), "the map and the list show different quakes"
    assert map_ids == ids(browser.rows("/quakes/map", date=day)), "markers are not drawn largest first"
    # Each row and marker is coloured by the band the server named, not by anything worked out here.
    shown = page.evaluate("() => Object.fromEntries([...document.querySelectorAll('ol.rows > li')].map(li => [li.dataset.id, li.querySelector('.magnitude').dataset.band]))")
    assert shown == {q["id"]: q["magnitudeBand"] or "unknown" for q in expected["items"]}, "a row's colour is not its band"
    marked = page.evaluate("() => Object.fromEntries([...document.querySelectorAll('svg.map circle.marker')].map(c => [c.dataset.id, c.dataset.band]))")
    assert marked == shown, "a marker's colour is not its row's"
    chosen = expected["items"][2]["id"]
    # The row highlights at once; the session hears of it when the PUT is answered.
    with page.expect_response(lambda r: r.url.endswith("/session/selection") and r.request.method == "PUT", timeout=2000):
        page.click(f"ol.rows > li[data-id='{chosen}']")
    page.wait_for_selector(f"svg.map circle.marker.selected[data-id='{chosen}']", timeout=2000)
    assert page.evaluate("() => document.querySelectorAll('circle.marker.selected').length") == 1
    assert session_selection(browser, page, day) == chosen, "the selection did not reach the session"
    # A second tab of the same session opens on the selection, then follows the first tab's
    # choices on its stream (a `selection` event), asking for nothing.
    tab = page.context.new_page()
    tab.goto(f"{browser.base}/#/quakes?date={day}")
    wait_rows(tab, ids(expected))
    tab.wait_for_selector(f"svg.map circle.marker.selected[data-id='{chosen}']", timeout=3000)
    asked = []
    tab.on("request", lambda request: asked.append(request.url))
    other = next(id for id in reversed(map_ids) if id != chosen)
    page.dispatch_event(f"svg.map circle.marker[data-id='{other}']", "click")
    page.wait_for_selector(f"ol.rows > li.selected[data-id='{other}']", timeout=2000)
    tab.wait_for_selector(f"ol.rows > li.selected[data-id='{other}'] button.pick[aria-pressed=true]", timeout=2000)
    tab.wait_for_selector(f"svg.map circle.marker.selected[data-id='{other}']", timeout=2000)
    page.focus(f"ol.rows > li[data-id='{chosen}'] button.pick")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"svg.map circle.marker.selected[data-id='{chosen}']", timeout=2000)
    tab.wait_for_selector(f"svg.map circle.marker.selected[data-id='{chosen}']", timeout=2000)
    assert tab.evaluate(SELECTED_IDS) == [chosen, chosen]
    assert asked == [], f"the second tab asked for {asked}"
    tab.close()
    # Another day, by magnitude: list and map follow, the day in the URL.
    day = (datetime.date.fromisoformat(day) - datetime.timedelta(days=1)).isoformat()
    page.fill("input[type=date]", day)
    page.select_option("label.picker select", "magnitude")
    other_day = browser.rows("/quakes", date=day, sort="magnitude", limit=500)
    wait_rows(page, ids(other_day))
    page.wait_for_function("n => document.querySelectorAll('svg.map circle.marker').length === n", arg=other_day["total"], timeout=3000)
    assert f"date={day}" in page.url and "sort=magnitude" in page.url, page.url
    page.context.close()


def check_users_tap_and_patch_latency(browser, timings):
    page = browser.page()
    page.goto(f"{browser.base}/#/users")
    expected = browser.rows("/users", limit=50)
    wait_rows(page, ids(expected))
    page.evaluate(MARK)
    person = expected["items"][1]
    page.click(f"li[data-id='{person['id']}'] button.tap")
    page.wait_for_function("([id, label]) => document.querySelector(`li[data-id='${id}'] .taps`).textContent === label",
                           arg=[person["id"], f"{person['taps'] + 1} taps"], timeout=1000)
    assert page.evaluate(UNMARKED) == [], "a tap rebuilt rows"
    # Write → patch applied, both in the page's clock: a tap's answer, then the delta's mark.
    lags = []
    for _ in range(20):
        lags.append(page.evaluate("""async (id) => {
            const before = performance.getEntriesByName('listservice:patch').length;
            await fetch(`/users/${id}/tap`, { method: 'POST' });
            const answered = performance.now();
            while (performance.getEntriesByName('listservice:patch').length === before) await new Promise(r => setTimeout(r, 1));
            return performance.getEntriesByName('listservice:patch')[before].startTime - answered;
        }""", person["id"]))
    lags.sort()
    timings["patch applied after the write's answer, 20 taps (ms): p50 / max"] = f"{lags[10]:.1f} / {lags[-1]:.1f}"
    page.context.close()


def check_locale_and_zone_pickers(browser, timings):
    page = browser.page(locale="de-DE", zone="Asia/Tokyo")
    page.goto(f"{browser.base}/#/orders")
    assert page.input_value("#locale") == "de-DE" and page.input_value("#tz") == "Asia/Tokyo", "defaults are not the browser's"
    expected = browser.rows("/orders", limit=50, locale="de-DE", tz="Asia/Tokyo")
    wait_rows(page, ids(expected))
    page.wait_for_function("t => document.querySelector('ol.rows > li[data-id] .total').textContent === t", arg=expected["items"][0]["formattedTotal"])
    # The list's count as the server wrote it for the locale ("10.000 orders"), not as the browser would.
    assert expected["formattedTotal"] != str(expected["total"]), "a total too small to show grouping"
    page.wait_for_function("t => document.querySelector('.count').textContent === t", arg=f"{expected['formattedTotal']} orders")
    page.select_option("#locale", "fr-FR")
    page.select_option("#tz", "America/New_York")
    french = browser.rows("/orders", limit=50, locale="fr-FR", tz="America/New_York")
    # Both pickers change the list; wait for every row in the second one's zone, not only the
    # first (in the hours when Tokyo and New York are on different dates, the first row can
    # already read right while the list is still the one for fr-FR in Tokyo).
    metas = [f"{item['formattedDate']} · {item['shippingLabel']}" for item in french["items"]]
    page.wait_for_function("m => JSON.stringify([...document.querySelectorAll('ol.rows > li[data-id] .meta')].map(e => e.textContent)) === JSON.stringify(m)",
                           arg=metas)
    expect_orders(page, french)
    # The rows say which language they are in; the page around them (English) keeps its own.
    assert page.evaluate("() => [document.documentElement.lang, document.querySelector('ol.rows').lang]") == ["en", "fr-FR"]
    assert page.get_attribute("#locale option[value='de-DE']", "lang") == "de-DE"
    page.context.close()


def check_export_download(browser, timings):
    """The Export menu downloads the list as the screen shows it: CSV for a spreadsheet in the
    chosen language (German: `;`, a byte order mark, German headers), every row of the list,
    cell for cell the API's rows; and NDJSON, the API's rows themselves."""
    page = browser.page(locale="de-DE", zone="Europe/Berlin")
    page.goto(f"{browser.base}/#/orders?filter=pending&q=john")
    everything = browser.rows("/orders", filter="pending", q="john", limit=500, locale="de-DE", tz="Europe/Berlin")
    wait_rows(page, ids(everything)[:50])
    page.click("details.export summary")
    started = time.monotonic()
    with page.expect_download() as download_info:
        page.click("a[data-export=csv]")
    download = download_info.value
    timings["export download (CSV, de-DE)"] = f"{(time.monotonic() - started) * 1000:.0f} ms"
    assert re.fullmatch(r"orders-\d{4}-\d{2}-\d{2}\.csv", download.suggested_filename), download.suggested_filename
    with open(download.path(), "rb") as file:
        data = file.read()
    assert data.startswith(b"\xef\xbb\xbf"), data[:10]
    records = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=";"))
    assert records[0][:5] == ["ID", "Titel", "Kunde", "Status", "Summe"], records[0]
    assert everything["total"] <= 500 and len(records) == everything["total"] + 1, (len(records), everything["total"])
    for record, item in zip(records[1:], everything["items"]):
        assert record[:7] == [item["id"], item["title"], item["customerName"], item["statusLabel"], item["formattedTotal"],
                              item["formattedDate"], item["shippingLabel"]], (record, item)
    page.click("details.export summary")
    with page.expect_download() as download_info:
        page.click("a[data-export=ndjson]")
    with open(download_info.value.path(), "rb") as file:
        lines = [json.loads(line) for line in file.read().splitlines()]
    assert lines == everything["items"], "the NDJSON file is not the list's rows"
    page.context.close()


AXE = importlib.resources.files("axe_playwright_python").joinpath("axe.min.js").read_text()


def axe_violations(page):
    """What axe-core (WCAG 2.x A and AA, and its best practices) finds wrong on the page as it is now."""
    page.evaluate(AXE)
    return page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations.map(v =>
        `${v.id} (${v.impact}): ${v.help}: ` + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))""")


def check_accessibility(browser, timings):
    """Every screen, light and dark, wide and narrow, passes axe-core: contrast, list and ARIA
    structure, names and roles; and so do the open Export menu, the bulk bar over a selection and
    the task form's field errors."""
    found = {}
    # A day with quakes (the screen's default, today in Berlin, has none yet around midnight).
    screens = ("orders", "orders?group=day", "tasks", f"quakes?date={quake_day(browser)}", "users")
    for width, scheme in ((1280, "light"), (1280, "dark"), (375, "light")):
        page = browser.page(width=width, color_scheme=scheme)
        for screen in screens:
            page.goto(f"{browser.base}/#/{screen}")
            page.wait_for_selector("ol.rows > li[data-id]")
            if screen == "orders":
                page.click("ol.rows > li[data-id] > input.select")
                page.click("details.export summary")
                page.wait_for_selector("details.export a[data-export]")
            if screen == "tasks":  # the form's field errors shown
                browser.expected_refusals.add(422)
                page.click("form.add button[type=submit]")
                page.wait_for_function("() => document.querySelector('#task-title-error').textContent !== ''", timeout=2000)
            for violation in axe_violations(page):
                found.setdefault(violation, []).append(f"{screen} {width} {scheme}")
        page.context.close()
    assert not found, "\n".join(f"{violation} [{', '.join(where)}]" for violation, where in found.items())


def check_bulk_complete(browser, timings):
    """Rows selected (a click, then a shift-click for the range between) and completed at once:
    the pending ones complete and the page shows it live; a cancelled one in the range is
    refused and its row says why; "Select all on page" selects every row shown."""
    page = browser.page()
    page.goto(f"{browser.base}/#/orders")
    shown = browser.rows("/orders", limit=50)["items"]
    wait_rows(page, [item["id"] for item in shown])
    start = next(i for i in range(len(shown) - 3) if {row["status"] for row in shown[i:i + 4]} >= {"pending", "cancelled"})
    chosen = shown[start:start + 4]
    page.click(f"li[data-id='{chosen[0]['id']}'] > input.select")
    page.click(f"li[data-id='{chosen[-1]['id']}'] > input.select", modifiers=["Shift"])
    page.wait_for_function("() => document.querySelector('.selected-count').textContent === '4 selected'")
    started = time.monotonic()
    page.click("button[data-bulk=complete]")
    cancelled = [row for row in chosen if row["status"] == "cancelled"]
    page.wait_for_function("id => document.querySelector(`li[data-id='${id}'] .outcome`)?.textContent.includes('cannot be completed')",
                           arg=cancelled[0]["id"])
    for row in chosen:
        if row["status"] == "pending":
            page.wait_for_selector(f"li[data-id='{row['id']}'].status-completed")
    timings["bulk complete of 4 → rows shown (ms)"] = f"{(time.monotonic() - started) * 1000:.0f}"
    after = {item["id"]: item["status"] for item in browser.rows("/orders", limit=50)["items"]}
    for row in chosen:
        expected = "cancelled" if row["status"] == "cancelled" else "completed"
        assert after[row["id"]] == expected, (row["id"], after[row["id"]])
    assert page.text_content(".selected-count") == "1 selected", "the refused row stays selected, the others leave"
    page.check(".bulk .select-all input")
    page.wait_for_function("() => document.querySelector('.selected-count').textContent === '50 selected'")
    page.uncheck(".bulk .select-all input")
    page.wait_for_function("() => document.querySelector('.selected-count').textContent === ''")
    page.context.close()


def check_refusal_shown_and_not_live(browser, timings):
    page = browser.page()
    browser.expected_refusals.add(400)
    page.goto(f"{browser.base}/#/orders?sort=bogus")
    page.wait_for_selector(".state.error", timeout=3000)
    status, problem = browser.api("GET", "/orders?sort=bogus")
    assert status == 400 and problem["detail"] in page.text_content(".state.error"), page.text_content(".state.error")
    assert page.text_content("#live") == "Not live"
    page.select_option("label.picker select", "total")
    wait_rows(page, ids(browser.rows("/orders", sort="total", limit=50)), timeout=3000)
    page.wait_for_function("() => document.querySelector('#live').textContent === 'Live'")
    page.context.close()


def check_reconnects_after_a_restart(browser, timings):
    page = browser.page()
    page.goto(f"{browser.base}/#/users")
    wait_rows(page, ids(browser.rows("/users", limit=50)))
    page.wait_for_function("() => document.querySelector('#live').textContent === 'Live'")
    browser.expected_refusals.add(0)
    browser.restart()
    stopped = time.monotonic()
    page.wait_for_function("() => document.querySelector('#live').dataset.state === 'reconnecting'", timeout=5000)
    person = browser.rows("/users", limit=50)["items"][0]
    status, tapped = browser.api("POST", f"/users/{person['id']}/tap")
    assert status == 200, status
    page.wait_for_function("() => document.querySelector('#live').textContent === 'Live'", timeout=15000)
    page.wait_for_function("([id, label]) => document.querySelector(`li[data-id='${id}'] .taps`).textContent === label",
                           arg=[person["id"], tapped["tapsLabel"]], timeout=3000)
    timings["restart → live again, with the change made meanwhile (s)"] = round(time.monotonic() - stopped, 1)
    page.context.close()


def sign_in(page, who):
    """Picks `who` (an identity of /auth/demo, or None to sign out) in the page's sign-in
    control, and waits until the screen was made again for them (no row of before is left)."""
    page.wait_for_selector("#signin select")
    page.evaluate(MARK)
    page.select_option("#signin select", f"{who['role']}:{who['sub']}" if who else "")
    page.wait_for_function("() => [...document.querySelectorAll('ol.rows > li[data-id]')].every(li => li.listServiceMark === undefined)"
                           " && document.querySelector('#live').textContent === 'Live'", timeout=3000)


def check_signed_in_customers_and_staff(browser, timings):
    """Two customers and staff signed in through the demo picker: each sees their own orders,
    a token handed over in the address signs a page in, and a staff write reaches live the
    page of that order's customer and no other."""
    status, demo = browser.api("GET", "/auth/demo")
    assert status == 200, status
    first, second, staff = demo["identities"][0], demo["identities"][1], demo["identities"][3]
    assert (first["role"], second["role"], staff["role"]) == ("customer", "customer", "staff"), demo

    def rows_as(who, **params):
        query = urllib.parse.urlencode({"locale": LOCALE, "tz": ZONE, "limit": 50, **params})
        status, body = browser.api("GET", f"/orders?{query}", headers=bearer(browser, who))
        assert status == 200, status
        return body

    pages = {}
    for who in (first, second, staff):
        page = browser.page()
        page.goto(f"{browser.base}/#/orders?filter=pending")
        wait_rows(page, ids(browser.rows("/orders", filter="pending", limit=50)))
        sign_in(page, who)
        expected = rows_as(who, filter="pending")
        wait_rows(page, ids(expected))
        expect_orders(page, expected)
        page.wait_for_function("() => document.querySelector('#live').textContent === 'Live'", timeout=3000)
        pages[who["sub"]] = page
    everything = browser.rows("/orders", filter="pending", limit=50)
    assert rows_as(staff, filter="pending")["total"] == everything["total"]
    assert rows_as(first, filter="pending")["total"] < everything["total"], "a customer sees fewer than staff"

    # A staff write to one of the first customer's pending orders: live on the first customer's
    # page (and staff's), and no event at all on the second customer's.
    target = rows_as(first, filter="pending")["items"][0]["id"]
    before = pages[second["sub"]].evaluate("() => performance.getEntriesByName('listservice:patch').length")
    status, _ = browser.api("POST", f"/orders/{target}/complete", headers=bearer(browser, staff))
    assert status == 200, status
    written = time.monotonic()
    for who in (first, staff):
        pages[who["sub"]].wait_for_function("id => !document.querySelector(`ol.rows > li[data-id='${id}']`)", arg=target, timeout=2000)
    timings["staff write → the customer's page (ms, measured by the test)"] = round((time.monotonic() - written) * 1000, 1)
    pages[second["sub"]].wait_for_timeout(500)
    after = pages[second["sub"]].evaluate("() => performance.getEntriesByName('listservice:patch').length")
    assert after == before, "the other customer's page got an event for an order it cannot see"

    # Signing out shows everything again; a token handed over in the address signs a page in.
    sign_in(pages[first["sub"]], None)
    wait_rows(pages[first["sub"]], ids(browser.rows("/orders", filter="pending", limit=50)))
    handed = bearer(browser, second)["Authorization"].removeprefix("Bearer ")
    page = browser.page()
    page.goto(f"{browser.base}/#/orders?filter=pending&token={handed}")
    wait_rows(page, ids(rows_as(second, filter="pending")))
    assert "token" not in page.url, page.url
    for each in [page, *pages.values()]:
        each.context.close()


def save_screenshots(browser, directory):
    for width, height in ((1280, 800), (360, 740)):
        page = browser.page(width, height)
        for screen, fragment in (("orders", "orders"), ("tasks", "tasks"), ("quakes", f"quakes?date={quake_day(browser)}"), ("users", "users")):
            page.goto(f"{browser.base}/#/{fragment}")
            page.wait_for_selector("ol.rows > li[data-id]")
            if screen == "quakes":
                page.wait_for_selector("svg.map circle.marker")
            page.wait_for_timeout(300)
            page.screenshot(path=f"{directory}/{screen}-{width}.png")
        page.context.close()


def check_one_stream_for_the_page(browser, timings):
    """The earthquakes screen's list and map share the tab's one stream (GET /live), and
    switching screens changes the lists on it without a new connection."""
    page = browser.page()
    streams = []
    page.on("request", lambda r: streams.append(r.url) if r.resource_type == "eventsource" else None)
    # A day that has quakes: the screen's default, today in Berlin, has none yet around midnight.
    page.goto(f"{browser.base}/#/quakes?date={quake_day(browser)}")
    page.wait_for_selector("ol.rows > li[data-id]")
    page.wait_for_selector("svg.map circle.marker")
    page.wait_for_function("() => document.querySelector('#live').textContent === 'Live'")
    assert len(streams) == 1 and urllib.parse.urlparse(streams[0]).path == "/live", streams
    page.click("nav a[data-screen='users']")
    wait_rows(page, ids(browser.rows("/users", limit=50)))
    person = browser.rows("/users", limit=50)["items"][0]
    status, tapped = browser.api("POST", f"/users/{person['id']}/tap")
    assert status == 200, status
    page.wait_for_function("([id, label]) => document.querySelector(`li[data-id='${id}'] .taps`).textContent === label",
                           arg=[person["id"], tapped["tapsLabel"]], timeout=3000)
    assert len(streams) == 1, f"one connection for every screen: {streams}"
    page.context.close()


def check_quick_changes_end_on_the_last(browser, timings):
    """Criteria changed faster than the server answers (one chip, then another): the list ends
    on the last change, even when the first change's PUT is slow to reach the server."""
    page = browser.page()
    page.goto(f"{browser.base}/#/orders")
    wait_rows(page, ids(browser.rows("/orders", limit=50)))
    held = []

    def hold_the_pending_put(route):
        if not held and "filter=pending" in (route.request.post_data or ""):
            held.append(route)
        else:
            route.continue_()

    page.route("**/live/*/lists/*", hold_the_pending_put)
    page.click("button.chip[data-value=pending]")
    page.click("button.chip[data-value=completed]")
    page.wait_for_timeout(300)  # a second PUT sent at once would have been answered by now
    assert len(held) == 1, "the first change's PUT was not seen"
    held[0].continue_()
    page.wait_for_timeout(500)  # ...and the first one's snapshot would have arrived after it
    wait_rows(page, ids(browser.rows("/orders", filter="completed", limit=50)), timeout=3000)
    page.context.close()


def check_quick_selections_end_on_the_last(browser, timings):
    """Two quakes chosen faster than the server answers: the session and the page end on the
    second, even when the first choice's PUT is slow to reach the server."""
    page = browser.page()
    day = quake_day(browser)
    page.goto(f"{browser.base}/#/quakes?date={day}")
    expected = browser.rows("/quakes", date=day, limit=500)
    wait_rows(page, ids(expected))
    first, second = expected["items"][0]["id"], expected["items"][1]["id"]
    held = []

    def hold_the_first(route):
        if not held and first in (route.request.post_data or ""):
            held.append(route)
        else:
            route.continue_()

    page.route("**/session/selection", hold_the_first)
    page.click(f"ol.rows > li[data-id='{first}']")
    page.click(f"ol.rows > li[data-id='{second}']")
    page.wait_for_timeout(300)  # a second PUT sent at once would have been answered by now
    assert len(held) == 1, "the first choice's PUT was not seen"
    held[0].continue_()
    deadline = time.monotonic() + 3
    while True:  # the session, as the page's cookie names it, until it holds the second choice
        selected = session_selection(browser, page, day)
        if selected == second or time.monotonic() > deadline:
            break
        page.wait_for_timeout(50)
    assert selected == second, f"the session ended on {selected}, not on the last choice ({second})"
    page.wait_for_selector(f"svg.map circle.marker.selected[data-id='{second}']", timeout=2000)
    assert page.evaluate(SELECTED_IDS) == [second, second]
    page.context.close()


def check_a_late_answer_keeps_another_tabs_later_choice(browser, timings):
    """Two tabs of one session: the first tab's choice is made on the server, but its answer is
    held back until the second tab has chosen another quake and both choices were said on the
    first tab's stream. The late answer must not undo the later choice: both tabs end on the
    session's selection."""
    page = browser.page()
    day = quake_day(browser)
    address = f"{browser.base}/#/quakes?date={day}"
    expected = browser.rows("/quakes", date=day, limit=500)
    page.goto(address)
    wait_rows(page, ids(expected))
    tab = page.context.new_page()
    tab.goto(address)
    wait_rows(tab, ids(expected))
    first, second = expected["items"][0]["id"], expected["items"][1]["id"]
    held = []

    def answer_late(route):
        held.append((route, route.fetch()))  # the server selects `first`; its answer waits

    page.route("**/session/selection", answer_late)
    page.click(f"ol.rows > li[data-id='{first}'] button.pick")
    deadline = time.monotonic() + 3
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert held, "the first tab's PUT was not seen"
    tab.click(f"ol.rows > li[data-id='{second}'] button.pick")
    tab.wait_for_selector(f"svg.map circle.marker.selected[data-id='{second}']", timeout=2000)
    page.wait_for_timeout(300)  # both choices are on the first tab's stream by now
    route, response = held[0]
    route.fulfill(response=response)
    session = session_selection(browser, page, day)
    assert session == second, f"the session holds {session}, not the later choice {second}"
    for each in (page, tab):
        try:
            each.wait_for_function(f"id => JSON.stringify(({SELECTED_IDS})()) === JSON.stringify([id, id])", arg=second, timeout=2000)
        except Exception:
            raise AssertionError(f"a tab shows {each.evaluate(SELECTED_IDS)}, the session {second}")
    tab.close()
    page.context.close()


def check_a_lost_answer_is_retried_once(browser, timings):
    """A tap whose answer is lost after the server ran it: the page sends it again under the
    same Idempotency-Key, and the server replays the answer instead of tapping twice."""
    page = browser.page()
    page.goto(f"{browser.base}/#/users")
    expected = browser.rows("/users", limit=50)
    wait_rows(page, ids(expected))
    person = expected["items"][2]
    keys, replays = [], []

    def lose_the_first_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        response = route.fetch()  # the server runs the write...
        replays.append(response.headers.get("idempotent-replayed"))
        if len(keys) == 1:
            route.abort("connectionreset")  # ...but the page never hears of it
        else:
            route.fulfill(response=response)

    page.route(f"**/users/{person['id']}/tap", lose_the_first_answer)
    page.click(f"li[data-id='{person['id']}'] button.tap")
    deadline = time.monotonic() + 5
    while len(keys) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    page.wait_for_function("([id, label]) => document.querySelector(`li[data-id='${id}'] .taps`).textContent === label",
                           arg=[person["id"], f"{person['taps'] + 1} taps"], timeout=2000)
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1], f"the retry went under the same key: {keys}"
    assert replays == [None, "true"], f"the retry was answered from the record: {replays}"
    status, row = browser.api("GET", f"/users/{person['id']}")
    assert status == 200 and row["taps"] == person["taps"] + 1, f"tapped once: {row}"
    browser.problems[:] = [problem for problem in browser.problems if "ERR_CONNECTION_RESET" not in problem]  # the lost answer
    page.context.close()


CHECKS = [check_orders_match_api, check_search_filter_sort_and_reload, check_load_more_and_empty, check_a_page_for_other_criteria_is_dropped, check_live_write_keeps_other_nodes, check_complete_and_refusal,
          check_task_form, check_quakes_list_and_map, check_quick_changes_end_on_the_last, check_quick_selections_end_on_the_last, check_a_late_answer_keeps_another_tabs_later_choice, check_users_tap_and_patch_latency, check_a_lost_answer_is_retried_once, check_one_stream_for_the_page,
          check_chip_counts_change_live, check_sections_group_by_and_sticky_headers, check_people_index_jumps,
          check_deep_link_lands_on_its_row,
          check_locale_and_zone_pickers,
          check_refusal_shown_and_not_live, check_reconnects_after_a_restart, check_retries_a_refused_stream, check_signed_in_customers_and_staff,
          check_export_download, check_bulk_complete, check_accessibility, measure_first_rows]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/debug/server")
    parser.add_argument("--shots", default="docs/screenshots", help="where the screenshots go ('' for none)")
    arguments = parser.parse_args()
    failures, timings = 0, {}
    with sync_playwright() as playwright:
        browser = Browser(playwright, arguments.binary)
        try:
            if arguments.shots:  # first, on the embedded data as a newcomer sees it
                save_screenshots(browser, arguments.shots)
                print(f"browser screenshots: {arguments.shots}")
            for check in CHECKS:
                browser.problems.clear()
                browser.expected_refusals.clear()
                started = time.monotonic()
                try:
                    check(browser, timings)
                    assert not browser.problems, browser.problems
                    print(f"browser {check.__name__}: ok ({time.monotonic() - started:.1f} s)")
                except Exception:
                    failures += 1
                    print(f"browser {check.__name__}: FAILED\n{traceback.format_exc()}")
        finally:
            browser.close()
    for name, value in timings.items():
        print(f"browser timing: {name}: {value}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
