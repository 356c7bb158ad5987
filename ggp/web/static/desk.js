// A person's seat: follows the desk (long polling), shows the table, offers the moves,
// counts the clock down and sends the choice.
(function () {
  var version = -1, turn = null, deadline = null, closed = false, failures = 0;
  var el = function (id) { return document.getElementById(id); };

  function banner(text, kind) {
    var b = el("banner");
    if (!text) { b.hidden = true; return; }
    b.hidden = false; b.className = "banner" + (kind ? " " + kind : ""); b.textContent = text;
  }

  function showLog(entries) {
    var log = el("log");
    log.textContent = "";
    for (var i = entries.length - 1; i >= 0; i--) {
      var li = document.createElement("li");
      var head = document.createElement("b"); head.textContent = entries[i][0]; li.appendChild(head);
      if (entries[i][1].length) {
        var ul = document.createElement("ul");
        entries[i][1].forEach(function (line) { var x = document.createElement("li"); x.textContent = line; ul.appendChild(x); });
        li.appendChild(ul);
      }
      log.appendChild(li);
    }
  }

  function showMoves(state) {
    var box = el("choose"), list = el("choices");
    list.textContent = "";
    if (state.status !== "choosing" || state.chosen) { box.hidden = true; deadline = null; return; }
    box.hidden = false;
    state.moves.forEach(function (m) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = m.label; b.dataset.move = m.move; b.className = "move-button";
      b.addEventListener("click", function () { send(m.move, m.label); });
      list.appendChild(b);
    });
    deadline = state.remaining === null ? null : Date.now() + state.remaining * 1000;
    tick();
  }

  function send(move, label) {
    Array.prototype.forEach.call(el("choices").querySelectorAll("button"), function (b) { b.disabled = true; });
    fetch(document.body.dataset.moveUrl, { method: "POST", headers: { "Content-Type": "application/json" },
                         body: JSON.stringify({ turn: turn, move: move }) })
      .then(function (r) { return r.json().then(function (body) { return [r.status, body]; }); })
      .then(function (answer) {
        if (answer[0] === 200) { banner("You played " + label + ".", ""); el("choose").hidden = true; deadline = null; }
        else { banner(answer[1].error || "the move was refused", "bad"); }
      })
      .catch(function () { banner("the move could not be sent", "bad"); });
  }

  function tick() {
    if (deadline === null) return;
    var left = Math.max(0, deadline - Date.now()), total = Math.max(1, window.PLAYCLOCK * 1000);
    el("clock-text").textContent = (left / 1000).toFixed(1) + " s left";
    var bar = el("clock-bar");
    bar.style.width = Math.min(100, 100 * left / total) + "%";
    bar.className = "clock-bar" + (left < 5000 ? " late" : "");
    if (left <= 0) {
      el("clock-text").textContent = "time is up";
      Array.prototype.forEach.call(el("choices").querySelectorAll("button"), function (b) { b.disabled = true; });
      deadline = null;
      return;
    }
    window.setTimeout(tick, 100);
  }

  function apply(state) {
    version = state.version; turn = state.turn; window.PLAYCLOCK = state.play_clock || 1;
    el("desk-title").textContent = state.game ? state.game : "Waiting for a match…";
    el("desk-role").textContent = state.role ? "you play " + state.role : "";
    el("desk-match").textContent = state.match_id ? "match " + state.match_id : "";
    if (state.html !== null) el("table").innerHTML = state.html;
    showLog(state.log);
    showMoves(state);
    var kind = state.status === "over" ? "over" : (state.warning ? "bad" : "");
    banner(state.message, kind);
    document.body.dataset.status = state.status;
    document.body.dataset.turn = state.turn === null ? "" : state.turn;
    document.body.dataset.version = state.version;
  }

  function poll() {
    if (closed) return;
    fetch(document.body.dataset.stateUrl + "?after=" + version, { cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
      .then(function (state) { failures = 0; if (state.version !== version) apply(state); poll(); })
      .catch(function () {
        failures += 1;
        if (failures > 3) {
          closed = true; el("choose").hidden = true;
          banner("The host has closed this seat: the match is over or was stopped.", document.body.dataset.status === "over" ? "over" : "bad");
          return;
        }
        window.setTimeout(poll, 700);
      });
  }
  poll();
})();
