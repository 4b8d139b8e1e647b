/* Table clocks: every element with data-clock-deadline (an ISO time) says the round's time
   left ("Round 2: 12 minutes left"), then how far over ("3 minutes over"), in the same words as
   league/pace/clock.py, which wrote the text first. Re-read every second, so clocks swapped in
   by live-refresh.js count too. Silent, except a clock marked data-clock-chime="on" (the wall,
   when the event turned the chime on): one gentle tone when its time is up, once per table and
   round, and only for a clock this page saw running. */
(function () {
  "use strict";

  var seenRunning = {};
  var chimed = {};
  var audio = null;

  function minutes(count) {
    return count + (count === 1 ? " minute" : " minutes");
  }

  function words(secondsLeft) {
    if (secondsLeft > 0) return minutes(Math.ceil(secondsLeft / 60)) + " left";
    var over = Math.floor(-secondsLeft / 60);
    return over === 0 ? "time is up" : minutes(over) + " over";
  }

  function chime() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + 0.05);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 1.5);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 1.6);
    } catch (e) { /* no sound is fine: the clock says it */ }
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock-deadline]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var deadline = Date.parse(clock.getAttribute("data-clock-deadline"));
      if (isNaN(deadline)) continue;
      var left = (deadline - Date.now()) / 1000;
      var text = "Round " + clock.getAttribute("data-clock-round") + ": " + words(left);
      if (clock.textContent !== text) clock.textContent = text;
      if (clock.parentNode) clock.parentNode.classList.toggle("over", left <= 0);
      var key = (clock.getAttribute("data-clock-table") || "") + "/" +
        clock.getAttribute("data-clock-round") + "/" + clock.getAttribute("data-clock-deadline");
      if (left > 0) { seenRunning[key] = true; continue; }
      if (clock.getAttribute("data-clock-chime") === "on" && seenRunning[key] && !chimed[key]) {
        chimed[key] = true;
        chime();
      }
    }
  }

  function start() {
    tick();
    window.setInterval(tick, 1000);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
