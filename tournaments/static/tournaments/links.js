/* Private seat links on the night page: a Copy button beside each (the link's own text box is
   read-only), and Share where the phone offers it, so the organiser sends a link to its player
   without selecting text. The buttons are added here: without script the text box is still
   there to select. The night's table list is redrawn as tables play, so the buttons are added
   again after each redraw (htmx:afterSettle). */
(function () {
  "use strict";

  function say(box, words) {
    var status = box.querySelector(".link-status");
    if (status) status.textContent = words;
  }

  function copy(box, input) {
    var done = function () { say(box, "Copied."); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { select(box, input); });
    } else {
      select(box, input);
    }
  }

  function select(box, input) {
    input.focus();
    input.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    say(box, copied ? "Copied." : "Selected: copy it with your device's Copy.");
  }

  function add(box) {
    if (box.dataset.buttons) return;
    var input = box.querySelector("input[readonly]");
    if (!input) return;
    box.dataset.buttons = "1";
    var who = box.dataset.player || "this player";
    var buttons = document.createElement("span");
    buttons.className = "link-buttons";
    var copyButton = document.createElement("button");
    copyButton.type = "button";
    copyButton.className = "link-copy";
    copyButton.textContent = "Copy";
    copyButton.setAttribute("aria-label", "Copy the link for " + who);
    copyButton.addEventListener("click", function () { copy(box, input); });
    buttons.appendChild(copyButton);
    if (navigator.share) {
      var share = document.createElement("button");
      share.type = "button";
      share.textContent = "Share";
      share.setAttribute("aria-label", "Send " + who + " their private link");
      share.addEventListener("click", function () {
        navigator.share({ title: who + "'s seat", url: input.value }).catch(function () {});
      });
      buttons.appendChild(share);
    }
    var status = document.createElement("span");
    status.className = "link-status";
    status.setAttribute("role", "status");
    buttons.appendChild(status);
    box.appendChild(buttons);
  }

  function addAll() {
    Array.prototype.forEach.call(document.querySelectorAll(".seat-link"), add);
  }

  document.addEventListener("htmx:afterSettle", addAll);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", addAll);
  else addAll();
})();
