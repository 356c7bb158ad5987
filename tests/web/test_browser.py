"""The pages in a real browser (headless Chromium through Selenium): the list, a replay of a
recorded Kuhn match stepped through with the keyboard, and whole matches played as ``web``
players by clicking."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.conftest import RULESHEETS
from tests.web.browser import Served

HERE = Path(__file__).parent
DESK = r"at (http://127\.0\.0\.1:\d+/desk/[\w-]+)"


def wait_for(what: Callable[[], Any], timeout: float = 60.0, message: str = "") -> Any:
    """Poll ``what`` until it returns something true."""
    deadline = time.monotonic() + timeout
    while True:
        value = what()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting: {message}")
        time.sleep(0.05)


def cards(driver: Any, css: str = "") -> list[str]:
    """The names of the face-up cards drawn (inside ``css``, if given)."""
    from selenium.webdriver.common.by import By

    return [e.get_attribute("data-name") for e in driver.find_elements(By.CSS_SELECTOR, f"{css} svg.card[data-name]")]


def press(driver: Any, key: str) -> None:
    """Press ``key`` on the page as it is now."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def test_index_in_the_browser(chromium: Any, viewer: Served, store: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    chromium.get(viewer.url + "/")
    links = {e.text: e.get_attribute("href") for e in chromium.find_elements(By.CSS_SELECTOR, "a.match-link")}
    assert set(links) == set(store["ids"].values())
    chromium.find_element(By.LINK_TEXT, store["ids"]["kuhn"]).click()
    wait_for(lambda: "/matches/kuhn.test" in chromium.current_url, message="the replay page")
    assert chromium.find_element(By.ID, "step-number").text == "0"


def test_replay_draws_the_cards_and_steps_with_the_keyboard(chromium: Any, viewer: Served,
                                                           store: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from ggp.manager.store import MatchStore

    with MatchStore(store["db"]) as db:
        record = db.get(store["ids"]["kuhn"])
    chromium.get(f"{viewer.url}/matches/{record.match_id}")
    # at the start every card is in the stock, named as the RECYCLE deck names them
    assert sorted(cards(chromium, "[data-owner=game]")) == ["Jack", "King", "Queen"]
    for expected in (1, 2, 3):
        press(chromium, Keys.ARROW_RIGHT)
        wait_for(lambda: chromium.find_element(By.ID, "step-number").text == str(expected), message=f"step {expected}")
        assert f"step={expected}" in chromium.current_url
    # after the deal (step 3): one card in each hand; the record says which
    dealt = {}
    for step in record.steps:
        for role in ("player0", "player1"):
            for percept in step.percepts[role]:
                if percept.startswith("(moved") and f"(loc {role} iloc hand)" in percept and not percept.endswith("hidden)"):
                    dealt[role] = percept.split()[-1].rstrip(")")
    names = {"jack": "Jack", "queen": "Queen", "king": "King"}
    for role in ("player0", "player1"):
        assert cards(chromium, f"[data-owner={role}] [data-location*=hand]") == [names[dealt[role]]]
    press(chromium, Keys.ARROW_LEFT)
    wait_for(lambda: chromium.find_element(By.ID, "step-number").text == "2", message="back to step 2")
    press(chromium, Keys.END)
    wait_for(lambda: chromium.find_element(By.ID, "step-number").text == str(len(record.steps)), message="the end")
    assert chromium.find_elements(By.CSS_SELECTOR, ".goals .goal[data-role=player0]")
    press(chromium, Keys.HOME)
    wait_for(lambda: chromium.find_element(By.ID, "step-number").text == "0", message="back to the start")


def test_a_role_sees_only_its_own_card(chromium: Any, viewer: Served, store: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    chromium.get(f"{viewer.url}/matches/{store['ids']['kuhn']}?step=3")
    chromium.find_element(By.CSS_SELECTOR, "a.view-tab[data-role=player0]").click()
    wait_for(lambda: "view=player0" in chromium.current_url, message="player0's view")
    assert len(cards(chromium)) == 1  # its own card: the others are face down
    assert len(cards(chromium, "[data-owner=player0]")) == 1
    opponent = chromium.find_element(By.CSS_SELECTOR, "[data-owner=player1] [data-location*=hand]")
    assert opponent.get_attribute("data-hidden") == "1"
    stock = chromium.find_element(By.CSS_SELECTOR, "[data-owner=game] [data-location*=stock]")
    assert stock.get_attribute("data-hidden") == "1"
    maybe = stock.find_element(By.CSS_SELECTOR, ".face-down").get_attribute("title")
    assert maybe.count("50%") == 2  # either of the two cards it does not hold


def test_screenshots_of_the_pages(chromium: Any, viewer: Served, store: dict[str, Any],
                                  tmp_path: Path) -> None:
    """The pages render to pictures (kept with GGP_SCREENSHOTS=DIR, for docs/viewer.md)."""
    folder = Path(os.environ.get("GGP_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    for name, path in (("index", "/"), ("replay", f"/matches/{store['ids']['kuhn']}?step=4"),
                       ("replay-role", f"/matches/{store['ids']['kuhn']}?step=4&view=player1"),
                       ("facts", f"/matches/{store['ids']['tictactoe']}?step=5")):
        chromium.get(viewer.url + path)
        target = folder / f"{name}.png"
        assert chromium.save_screenshot(str(target))
        assert target.stat().st_size > 10_000


def _desk_state(driver: Any) -> dict[str, str]:
    data = driver.execute_script("return Object.assign({}, document.body.dataset)")
    return data or {}


def play_by_clicking(driver: Any, url: str, pick: Callable[[list[str]], str]) -> list[str]:
    """Play a seat to the end by clicking the move ``pick`` chooses among the labels shown;
    the labels clicked."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    driver.get(url)
    clicked: list[str] = []
    handled: set[str] = set()
    while True:
        state = wait_for(lambda: (s := _desk_state(driver)) and s.get("status") in ("choosing", "over") and s, 120,
                         "a choice or the end")
        if state["status"] == "over":
            return clicked
        if state["turn"] in handled:
            time.sleep(0.05)
            continue
        try:
            buttons = driver.find_elements(By.CSS_SELECTOR, "#choices button.move-button")
            labels = [b.text for b in buttons]
            if not labels:
                continue
            choice = pick(labels)
            buttons[labels.index(choice)].click()
        except StaleElementReferenceException:
            continue
        handled.add(state["turn"])
        clicked.append(choice)
        turn = state["turn"]
        # the banner says so until the next state comes, which can come first under load
        wait_for(lambda: "You played" in driver.find_element(By.ID, "banner").text
                 or ((s := _desk_state(driver)) and (s.get("turn") != turn or s.get("status") == "over")),
                 60, "the move accepted")


def _match(store: dict[str, Any], game: Path, players: list[str], clock: str, seed: str) -> Served:
    return Served(["match", str(game), *[a for p in players for a in ("--player", p)], "--playclock", clock,
                   "--startclock", "30", "--seed", seed, "--match-id", f"{game.stem}.web{seed}"],
                  store["env"], DESK, stream="stderr")


def test_a_whole_kuhn_match_played_by_clicking(chromium: Any, store: dict[str, Any]) -> None:
    from ggp.manager.store import MatchStore

    match = _match(store, RULESHEETS / "kuhn.rcy", ["web", "random"], "60", "11")
    try:
        clicked = play_by_clicking(chromium, match.url, lambda labels: "bet" if "bet" in labels else labels[-1])
        assert match.wait(60) == 0
        summary = json.loads(match.output())
    finally:
        match.stop()
    assert summary["errors"] == []
    assert clicked and clicked[0] == "bet"
    with MatchStore(store["db"]) as db:
        record = db.get("kuhn.web11")
    assert record.status == "finished"
    assert not any(s.substitutions for s in record.steps)
    # each label clicked is what the move did: player0 saw its action set to it
    actions = [p.split()[-1].rstrip(")") for s in record.steps for p in s.percepts["player0"]
               if p.startswith("(str player0 action")]
    assert actions == clicked
    final = record.goals["player0"]
    from selenium.webdriver.common.by import By

    assert f"You scored {final}" in chromium.find_element(By.ID, "banner").text


def test_time_running_out_is_said_on_the_page(chromium: Any, store: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    match = _match(store, RULESHEETS / "kuhn.rcy", ["web", "random"], "2", "12")
    try:
        chromium.get(match.url)
        # the banner says it until the next turn; the log keeps it (or, when the player's own answer
        # came late under load, that the manager played for the person)
        wait_for(lambda: any(said in chromium.find_element(By.ID, part).text.lower()
                             for part in ("banner", "log") for said in ("time ran out", "too late")),
                 90, "the timeout message")
        assert match.wait(60) == 0
        summary = json.loads(match.output())
    finally:
        match.stop()
    # the player answered for the person with a legal move (under heavy load its answer may come
    # late, and the manager substitutes: never an illegal move)
    assert not any("illegal" in error for error in summary["errors"])


def test_two_web_players_and_a_builtin_player(chromium: Any, store: dict[str, Any]) -> None:
    from selenium import webdriver  # noqa: F401  (a second window of the same browser)
    from ggp.manager.store import MatchStore

    game = HERE / "swap3.rcy"
    match = _match(store, game, ["web", "legal", "web"], "60", "13")
    try:
        wait_for(lambda: len(set(match.urls) | set(_urls(match))) >= 2, 60, "two seats")
        seats = sorted(set(_urls(match)))
        assert len(seats) == 2
        first = chromium.current_window_handle
        chromium.switch_to.new_window("tab")
        second = chromium.current_window_handle
        played: dict[str, list[str]] = {seats[0]: [], seats[1]: []}
        chromium.switch_to.window(first)
        chromium.get(seats[0])
        chromium.switch_to.window(second)
        chromium.get(seats[1])
        done: set[str] = set()
        deadline = time.monotonic() + 180
        while len(done) < 2 and time.monotonic() < deadline:
            for handle, seat in ((first, seats[0]), (second, seats[1])):
                if seat in done:
                    continue
                chromium.switch_to.window(handle)
                state = _desk_state(chromium)
                if state.get("status") == "over":
                    done.add(seat)
                elif state.get("status") == "choosing" and not played[seat]:
                    from selenium.webdriver.common.by import By

                    buttons = chromium.find_elements(By.CSS_SELECTOR, "#choices button.move-button")
                    if buttons:
                        played[seat].append(buttons[-1].text)
                        buttons[-1].click()
            time.sleep(0.1)
        assert match.wait(60) == 0
        summary = json.loads(match.output())
        chromium.switch_to.window(second)
        chromium.close()
        chromium.switch_to.window(first)
    finally:
        match.stop()
    assert done == set(seats)
    assert all(len(labels) == 1 for labels in played.values())
    assert summary["errors"] == []
    with MatchStore(store["db"]) as db:
        record = db.get("swap3.web13")
    assert record.players == {"player0": "web", "player1": "legal", "player2": "web"}
    assert not any(s.substitutions for s in record.steps)


def _urls(match: Served) -> list[str]:
    import re

    return re.findall(DESK, match.output("stderr"))
