"""The web player's seat over real sockets: the move endpoint accepts only a legal move of the
open turn; everything else gets 400, 404, 405 or 409 and changes nothing; names from game files
stay text in the browser."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.conftest import RULESHEETS
from tests.web.browser import Served
from tests.web.test_browser import DESK, _desk_state, wait_for
from tests.web.test_pages import fetch

HERE = RULESHEETS.parent / "tests" / "web"


def state(url: str, after: int = -1) -> dict[str, Any]:
    status, body, _ = fetch(f"{url}/state?after={after}")
    assert status == 200, body
    answer: dict[str, Any] = json.loads(body)
    return answer


def post(url: str, body: object, raw: bytes | None = None, kind: str = "application/json") -> tuple[int, dict[str, Any]]:
    data = raw if raw is not None else json.dumps(body).encode()
    status, text, _ = fetch(f"{url}/move", "POST", data, {"Content-Type": kind})
    return status, json.loads(text)


def until_choosing(url: str) -> dict[str, Any]:
    version = -1
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        now = state(url, version)
        if now["status"] == "choosing" and not now["chosen"]:
            return now
        if now["status"] == "over":
            raise AssertionError("the match ended")
        version = now["version"]
    raise AssertionError("no choice came")


def play_out(url: str) -> None:
    """Play the seat to the end with its first legal move, over HTTP."""
    version = -1
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        now = state(url, version)
        if now["status"] == "over":
            return
        if now["status"] == "choosing" and not now["chosen"]:
            assert post(url, {"turn": now["turn"], "move": now["moves"][0]["move"]})[0] == 200
        version = now["version"]
    raise AssertionError("the match did not end")


def test_the_move_endpoint_accepts_only_a_legal_move_of_the_open_turn(store: dict[str, Any]) -> None:
    match = Served(["match", str(RULESHEETS / "kuhn.rcy"), "--player", "web", "--player", "random",
                    "--playclock", "60", "--seed", "21", "--match-id", "kuhn.desk21"], store["env"], DESK, "stderr")
    try:
        url = match.url
        now = until_choosing(url)
        turn, moves = now["turn"], [m["move"] for m in now["moves"]]
        assert sorted(m["label"] for m in now["moves"]) == ["bet", "check"]
        base = url.rsplit("/desk/", 1)[0]
        assert fetch(f"{base}/desk/not-a-seat/move", "POST", b"{}", {"Content-Type": "application/json"})[0] == 404
        assert fetch(f"{base}/desk/not-a-seat")[0] == 404
        assert fetch(f"{url}/move")[0] == 405
        assert fetch(f"{url}/state?after=x")[0] == 400
        assert post(url, None, raw=b"{not json")[0] == 400
        assert post(url, None, raw=b"\xff\xfe")[0] == 400
        assert post(url, [turn, moves[0]])[0] == 400
        assert post(url, {"turn": "0", "move": moves[0]})[0] == 400
        assert post(url, {"turn": turn, "move": 7})[0] == 400
        assert post(url, None, raw=b"x" * 10_000)[0] == 400
        status, answer = post(url, {"turn": turn, "move": "fold"})  # not legal without a bet
        assert status == 400 and "not one of your legal moves" in answer["error"]
        assert post(url, {"turn": turn, "move": "<script>"})[0] == 400
        status, answer = post(url, {"turn": turn + 1, "move": moves[0]})
        assert status == 409 and f"turn {turn + 1} is not open" in answer["error"]
        assert state(url)["chosen"] is False  # nothing above changed the seat
        status, answer = post(url, {"turn": turn, "move": "BET"})  # case does not matter
        assert status == 200 and answer["label"] == "bet"
        assert post(url, {"turn": turn, "move": moves[0]})[0] == 409  # chosen already
        play_out(url)
        assert match.wait(60) == 0
        assert json.loads(match.output())["errors"] == []
    finally:
        match.stop()
    from ggp.manager.store import MatchStore

    with MatchStore(store["db"]) as db:
        record = db.get("kuhn.desk21")
    assert record.steps[turn].joint_move[0] == "bet"


def test_names_from_game_files_stay_text_at_the_seat(chromium: Any, store: dict[str, Any]) -> None:
    from selenium.webdriver.common.by import By

    match = Served(["match", str(HERE / "xss.kif"), "--player", "web", "--playclock", "60", "--seed", "22"],
                   store["env"], DESK, "stderr")
    try:
        chromium.get(match.url)
        wait_for(lambda: _desk_state(chromium).get("status") == "choosing"
                 and chromium.find_elements(By.CSS_SELECTOR, "#choices button"), 60, "the choice")
        labels = [b.text for b in chromium.find_elements(By.CSS_SELECTOR, "#choices button")]
        assert any("<img/src=x/onerror=alert.2>" in label for label in labels), labels
        assert chromium.find_element(By.ID, "desk-role").text == "you play <script>alert.1</script>"
        card = chromium.find_element(By.CSS_SELECTOR, "svg.card[data-name]")
        assert card.get_attribute("data-name") == "<img/src=x/onerror=alert.2>"
        assert chromium.execute_script("return document.querySelectorAll('img, i').length") == 0
        assert chromium.execute_script("return document.scripts.length") == 1
        chromium.find_elements(By.CSS_SELECTOR, "#choices button")[0].click()
        wait_for(lambda: _desk_state(chromium).get("status") == "over", 60, "the end")
        assert match.wait(60) == 0
    finally:
        match.stop()


def test_desks_are_handed_on_and_choices_checked() -> None:
    import gc

    from ggp.gdl.terms import Constant
    from ggp.web.desk import CHOOSING, WATCHING, DeskRegistry

    class Holder:
        pass

    registry = DeskRegistry()
    first, second = Holder(), Holder()
    desk, new = registry.claim(first)
    other, other_new = registry.claim(second)
    assert new and other_new and desk is not other and len(registry) == 2
    registry.release(desk)
    third = Holder()
    again, again_new = registry.claim(third)
    assert again is desk and not again_new  # the next match's player keeps the person's page
    del second
    gc.collect()
    assert registry.claim(Holder())[0] is other  # a player that is gone frees its desk
    assert registry.get(desk.token) is desk and registry.get("nope") is None and registry.get("é") is None

    move = Constant("bet")
    desk.show(CHOOSING, turn=4, moves={"bet": (move, "bet")}, deadline=time.monotonic() + 30)
    assert desk.choose(3, "bet").status == 409
    assert desk.choose(4, "fold").status == 400
    assert desk.choose(True, "bet").status == 400 and desk.choose(4, None).status == 400
    assert desk.choose(4, " BET ").accepted
    assert desk.wait_choice(time.monotonic() + 1) == move
    desk.show(WATCHING)
    assert desk.choose(4, "bet").status == 409
    desk.show(CHOOSING, turn=5, moves={"bet": (move, "bet")}, deadline=time.monotonic() - 1)
    assert desk.choose(5, "bet").status == 409  # the time is up
    assert desk.wait_choice(time.monotonic() + 0.05) is None
