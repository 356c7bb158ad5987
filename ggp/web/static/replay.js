// The replay page: arrow keys, Home and End step through the match; the slider jumps.
(function () {
  var nav = document.querySelector(".stepper");
  if (!nav) return;
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName) && event.target.type !== "range") return;
    var which = keys[event.key];
    if (!which) return;
    var target = nav.dataset[which];
    if (target && target !== window.location.pathname + window.location.search) {
      event.preventDefault();
      window.location.assign(target);
    }
  });
  var slider = nav.querySelector("input[type=range]");
  if (slider) slider.addEventListener("change", function () { slider.form.submit(); });
})();
