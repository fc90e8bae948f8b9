/* The table page: live updates only while the tab is shown, and keyboard focus kept on the
   hand when the hand is drawn again. docs/decisions/0010-live-updates.md.

   Live updates: #live carries the stream's address (data-sse-url). While the tab is shown it
   gets htmx's SSE extension attribute (sse-connect) and the extension opens the stream; when
   the tab is hidden the stream is closed, so a hidden tab makes no request and holds no
   connection. Shown again, a fresh #live opens a new stream, whose first event is the game's
   version: the page fetches its fragments at once if it is behind. The poller (#poller) fetches
   only when an event's version is later than the page's own (#table-version), or when an event
   says nothing (the server may have missed a move: look again). */
(function () {
  "use strict";

  var sources = [];
  var paused = false;

  function shown() {
    return document.visibilityState !== "hidden";
  }

  function value(id) {
    var element = document.getElementById(id);
    return element ? element.value : "";
  }

  window.unoTable = {
    shown: shown,
    // An event of the stream: fetch when it names a later version than the page shows (an
    // older one is a move the page's own answer already brought), or none (look again).
    moved: function (message) {
      if (!message || message.data === "" || message.data === undefined) return true;
      var shown = Number(value("table-version"));
      return isNaN(shown) || Number(message.data) > shown;
    },
    // A finished game whose hands are held back (docs: games.visibility) is looked at now and
    // then while shown, until it is revealed: nothing is appended to it when that happens.
    heldBack: function () {
      var board = document.getElementById("board");
      return shown() && !!board && board.dataset.pending === "over" && value("table-revealed") === "0";
    },
  };

  function remember(source) {
    sources.push(source);
    return source;
  }

  if (window.htmx && htmx.createEventSource) {
    var create = htmx.createEventSource;
    htmx.createEventSource = function (url) {
      return remember(create(url));
    };
  }

  function live() {
    return document.getElementById("live");
  }

  function connect(element) {
    if (element && element.dataset.sseUrl) element.setAttribute("sse-connect", element.dataset.sseUrl);
  }

  function stop() {
    paused = true;
    sources.forEach(function (source) { source.close(); });
    sources = [];
  }

  function start() {
    if (!paused) return;
    paused = false;
    var old = live();
    if (!old) return;
    if (old.dataset.live === "sse") {
      // A fresh copy: the extension opens a new stream for it (and binds the poller to it).
      var fresh = old.cloneNode(true);
      connect(fresh);
      old.replaceWith(fresh);
      htmx.process(fresh);
    } else {
      htmx.trigger(document.getElementById("poller"), "live:catch-up");
    }
  }

  // Before htmx processes the page (this script is deferred, like htmx, and runs first):
  // the stream is opened only if the tab is shown.
  if (shown()) connect(live());
  else paused = true;

  document.addEventListener("visibilitychange", function () {
    if (shown()) start();
    else stop();
  });

  /* The players' strip. On a phone the seats scroll sideways when they do not all fit: each
     time the board is drawn (a new strip, scrolled to its start) the seat whose turn it is is
     brought into the strip's view, and
     the strip's ends fade where more players are out of view (data-more="left right"). */
  function strip() {
    var seats = document.querySelector(".table-page .seats");
    if (!seats) return;
    if (seats.scrollWidth > seats.clientWidth + 1) {
      var turn = seats.querySelector(".seat-turn");
      if (turn) {
        var box = seats.getBoundingClientRect();
        var seat = turn.getBoundingClientRect();
        if (seat.left < box.left) seats.scrollLeft -= box.left - seat.left;
        else if (seat.right > box.right) seats.scrollLeft += seat.right - box.right;
      }
    }
    ends(seats);
  }

  function ends(seats) {
    var more = [];
    if (seats.scrollLeft > 1) more.push("left");
    if (seats.scrollLeft + seats.clientWidth < seats.scrollWidth - 1) more.push("right");
    seats.dataset.more = more.join(" ");
  }

  document.addEventListener("htmx:afterSettle", strip);
  window.addEventListener("resize", strip);
  document.addEventListener("scroll", function (event) {
    var target = event.target;
    if (target && target.classList && target.classList.contains("seats")) ends(target);
  }, true);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", strip);
  else strip();

  /* Focus. A move (or another seat's, arriving live) draws #hand and #actions again: the
     button that had focus is gone. If focus was in the hand or the actions, it goes back to
     the same card or button when it is still there, else to the first way to play a card the
     page asks about, else to the card at the same place in the hand, else to the first card
     that can be played, else to the hand itself (the next Tab reaches the actions). */
  var memo = null;
  var restoring = false;

  function focusables(root) {
    return root ? Array.prototype.slice.call(root.querySelectorAll("button:not([disabled]), a[href], input:not([type=hidden]):not([disabled])")) : [];
  }

  document.addEventListener("htmx:beforeSwap", remember_focus);
  document.addEventListener("htmx:oobBeforeSwap", remember_focus);

  function remember_focus(event) {
    if (memo) return;
    var active = document.activeElement;
    var hand = document.getElementById("hand");
    var actions = document.getElementById("actions");
    var zone = hand && hand.contains(active) ? "hand" : actions && actions.contains(active) ? "actions" : null;
    if (!zone) return;
    var list = focusables(zone === "hand" ? hand : actions);
    // The answer to this page's own move, or another seat's move arriving.
    var from = event.detail && event.detail.requestConfig ? event.detail.requestConfig.elt : null;
    var mine = !!(from && from.closest && from.closest("#table-form"));
    memo = { zone: zone, id: active.id, index: list.indexOf(active), mine: mine };
  }

  // A fetch that swaps nothing (204: the game had not moved) leaves nothing to restore.
  document.addEventListener("htmx:afterRequest", function () {
    window.setTimeout(function () { if (!restoring) memo = null; }, 0);
  });

  document.addEventListener("htmx:oobAfterSwap", schedule);
  document.addEventListener("htmx:afterSwap", schedule);

  function schedule() {
    if (!memo || restoring) return;
    restoring = true;
    window.setTimeout(restore, 0);
  }

  function restore() {
    restoring = false;
    var was = memo;
    memo = null;
    if (!was) return;
    var active = document.activeElement;
    if (active && active !== document.body && document.body.contains(active) && !active.closest("#hand, #actions")) return; // the person moved on
    var hand = document.getElementById("hand");
    var actions = document.getElementById("actions");
    var same = was.id ? document.getElementById(was.id) : null;
    var cards = focusables(hand);
    var target = null;
    // Another seat moved while this one rested on a card or a button: the same one. After the
    // seat's own move: the hand.
    if (same && (!was.mine || was.zone === "hand") && same.closest("#hand, #actions") && focusables(same.parentNode).indexOf(same) >= 0) target = same;
    // Asked how to play a card (its colour, say): the first answer.
    if (!target && actions) target = focusables(actions.querySelector(".pick"))[0] || null;
    if (!target && was.zone === "hand" && cards.length) target = cards[Math.min(Math.max(was.index, 0), cards.length - 1)];
    if (!target && hand) target = hand.querySelector(".card.playable");
    if (!target && cards.length) target = cards[0];
    // No card to press: the hand itself (the next Tab reaches the actions).
    if (!target) target = hand || focusables(actions)[0];
    if (target) target.focus({ preventScroll: false });
  }

  /* The dispute form's choice of event follows the log (swapped out of band with each move):
     until the player chooses one (or opens the form from an event's "dispute" link) the newest
     event is offered; the event chosen stays chosen, even once it has left the log. */
  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "dispute-version") event.target.setAttribute("data-chosen", "");
  });

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var fragment = event.detail.fragment;
    if (!target || target.id !== "dispute-version" || !fragment) return;
    var incoming = fragment.querySelector ? fragment.querySelector("#dispute-version") || fragment.firstElementChild : null;
    if (!incoming || !target.value || !target.hasAttribute("data-chosen")) return;
    incoming.setAttribute("data-chosen", "");
    var chosen = target.value;
    var option = incoming.querySelector("option[value='" + chosen + "']");
    if (!option) {
      option = target.options[target.selectedIndex].cloneNode(true);
      incoming.appendChild(option);
    }
    Array.prototype.forEach.call(incoming.options, function (o) { o.selected = o.value === chosen; o.defaultSelected = o.value === chosen; });
  });

  /* A move that got no answer the page can show (the server unreachable, its records away for
     a moment: 503, or a fault: 500) would otherwise leave the table as it was, as if the press
     were lost. Say so where the actions are; the next answer redraws them and the note goes. */
  function moveFailed(event) {
    var elt = event.detail ? event.detail.elt : null;
    if (!elt || !elt.closest || !elt.closest("#table-form")) return;
    var actions = document.getElementById("actions");
    if (!actions) return;
    var note = document.getElementById("move-failed");
    if (!note) {
      note = document.createElement("p");
      note.id = "move-failed";
      note.className = "error";
      note.setAttribute("role", "alert");
      var heading = document.getElementById("actions-heading");
      actions.insertBefore(note, heading ? heading.nextSibling : actions.firstChild);
    }
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    note.textContent = MOVE_FAILED[status] || (status ? MOVE_FAILED.other : MOVE_FAILED.offline);
  }
  var MOVE_FAILED = {
    503: "The club's records are not answering, so your move may not have gone through. Wait a few seconds: the table will show whether it did.",
    429: "Too many presses at once: wait a moment, then try again.",
    403: "This browser is no longer seated at the table: open your seat's link again.",
    other: "Something went wrong on our side with your move. Load the page again to see the table as it is.",
    offline: "The connection to the club dropped, so your move may not have gone through. Once you are back online the table will show whether it did."
  };
  document.addEventListener("htmx:responseError", moveFailed);
  document.addEventListener("htmx:sendError", moveFailed);
})();
