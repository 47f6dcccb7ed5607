// 复制 beside each address on the share pages (issue 24). The buttons are hidden until this runs:
// without JavaScript the link itself is there to long-press. The clipboard API needs a secure page,
// and `bin/run --table` serves the phones plain HTTP, so where it is missing or refused the link's
// text is selected and copied the old way.
document.querySelectorAll("button[data-copy]").forEach(function (button) {
  button.hidden = false;
  button.addEventListener("click", function () {
    var done = function () { button.textContent = button.dataset.done; };
    var fallback = function () {
      var link = document.getElementById(button.getAttribute("aria-controls"));
      var range = document.createRange();
      range.selectNodeContents(link);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      try { document.execCommand("copy"); } catch (error) { /* selected: the phone's own menu copies it */ }
      done();
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(button.dataset.copy).then(done, fallback);
    } else {
      fallback();
    }
  });
});
