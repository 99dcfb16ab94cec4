// Filtering for the mcptest HTML report. The page is complete without this
// script; it adds the status, tag and text filters, keeps them in the URL
// fragment (#status=failed&tag=smoke&q=echo) so a filtered view can be
// shared or opened directly, and offers the embedded report as a download.
// It makes no network requests.
(function () {
  "use strict";
  var root = document.documentElement;
  var tests = Array.prototype.slice.call(document.querySelectorAll("details.test"));
  var statusBoxes = Array.prototype.slice.call(document.querySelectorAll("input[data-status]"));
  var tagButtons = Array.prototype.slice.call(document.querySelectorAll("button[data-tag]"));
  var search = document.getElementById("search");
  var shown = document.getElementById("shown");
  var empty = document.getElementById("empty");

  var tagsOf = tests.map(function (t) {
    try {
      return JSON.parse(t.getAttribute("data-tags") || "[]");
    } catch (e) {
      return [];
    }
  });

  function selected() {
    var st = {}, tags = {}, anyTag = false;
    statusBoxes.forEach(function (b) { if (b.checked) { st[b.getAttribute("data-status")] = true; } });
    tagButtons.forEach(function (b) {
      if (b.getAttribute("aria-pressed") === "true") { tags[b.getAttribute("data-tag")] = true; anyTag = true; }
    });
    return { status: st, tags: tags, anyTag: anyTag, q: search.value.trim().toLowerCase() };
  }

  function apply() {
    var sel = selected(), n = 0;
    tests.forEach(function (t, i) {
      var ok = sel.status[t.getAttribute("data-status")] === true;
      if (ok && sel.anyTag) {
        ok = tagsOf[i].some(function (tag) { return sel.tags[tag] === true; });
      }
      if (ok && sel.q) {
        ok = (t.getAttribute("data-search") || "").indexOf(sel.q) >= 0;
      }
      t.hidden = !ok;
      if (ok) { n++; }
    });
    shown.textContent = n + " of " + tests.length + " tests shown";
    empty.hidden = n !== 0;
    writeFragment(sel);
  }

  // writeFragment records the filters in the URL without adding history.
  function writeFragment(sel) {
    var p = new URLSearchParams();
    if (statusBoxes.some(function (b) { return !b.checked; })) {
      statusBoxes.forEach(function (b) { if (b.checked) { p.append("status", b.getAttribute("data-status")); } });
      if (!p.has("status")) { p.append("status", "none"); }
    }
    Object.keys(sel.tags).forEach(function (tag) { p.append("tag", tag); });
    if (sel.q) { p.append("q", sel.q); }
    var frag = p.toString();
    if (frag !== location.hash.replace(/^#/, "")) {
      try {
        history.replaceState(null, "", frag ? "#" + frag : location.pathname + location.search);
      } catch (e) { /* some file:// contexts refuse; the filters still work */ }
    }
  }

  // readFragment applies filters given in the URL fragment (or, failing
  // that, the query string): status and tag may repeat or hold
  // comma-separated lists.
  function readFragment() {
    var raw = location.hash.replace(/^#/, "") || location.search.replace(/^\?/, "");
    var p = new URLSearchParams(raw);
    var list = function (key) {
      var out = [];
      p.getAll(key).forEach(function (v) { v.split(",").forEach(function (x) { if (x) { out.push(x); } }); });
      return out;
    };
    var st = list("status");
    if (st.length) {
      statusBoxes.forEach(function (b) { b.checked = st.indexOf(b.getAttribute("data-status")) >= 0; });
    }
    var tags = list("tag");
    tagButtons.forEach(function (b) { b.setAttribute("aria-pressed", String(tags.indexOf(b.getAttribute("data-tag")) >= 0)); });
    search.value = p.get("q") || "";
  }

  statusBoxes.forEach(function (b) { b.addEventListener("change", apply); });
  tagButtons.forEach(function (b) {
    b.addEventListener("click", function () {
      b.setAttribute("aria-pressed", String(b.getAttribute("aria-pressed") !== "true"));
      apply();
    });
  });
  search.addEventListener("input", apply);
  window.addEventListener("hashchange", function () { readFragment(); apply(); });

  document.getElementById("expand").addEventListener("click", function () {
    tests.forEach(function (t) { if (!t.hidden) { t.open = true; } });
  });
  document.getElementById("collapse").addEventListener("click", function () {
    tests.forEach(function (t) { t.open = false; });
  });
  document.getElementById("download").addEventListener("click", function () {
    var data = document.getElementById("report-data").textContent;
    var url = URL.createObjectURL(new Blob([data], { type: "application/json" }));
    var a = document.createElement("a");
    a.href = url;
    a.download = "mcptest-report.json";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 0);
  });

  readFragment();
  apply();
  document.getElementById("filters").hidden = false;
  // Markers for tests: the script ran, and the stylesheet was allowed by
  // the content security policy.
  root.setAttribute("data-js", "ready");
  if (getComputedStyle(root).getPropertyValue("--loaded").trim() === "1") {
    root.setAttribute("data-css", "ready");
  }
})();
