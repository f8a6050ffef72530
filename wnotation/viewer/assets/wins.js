// The analysis in the viewer (wnotation.viewer.wins): each seat's win chance over the game as a graph, the shown
// position's estimate beside the board, and each action's computed mark in the turn's log. Only a page whose record
// carries computed [%win] or [%mark] tags (spec 7wn.md 8.4) includes this script, after the viewer's own; it talks to
// the viewer only through the page: it follows the position shown from the position label (#label) and the current
// turn button, and moves to a position by its deep link (#II.3, which the viewer follows on "hashchange").
// No innerHTML: every text from the record is set with textContent.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("wn-data").textContent);
  var W = D.wins;
  if (!W) return;
  var SVG = "http://www.w3.org/2000/svg";
  var names = D.seats.map(function (s) { return s.name; });
  var seats = names.length;
  var MAIN = D.positions.map(function (p) { return p.address; });
  var at = new Map();  // a main-line address to its index
  MAIN.forEach(function (a, i) { at.set(a, i); });
  var points = W.points.filter(function (p) { return at.has(p.address); });
  var byAddress = new Map();
  points.forEach(function (p) { byAddress.set(p.address, p); });
  var asOf = [], last = null;  // the last estimate at or before each position
  MAIN.forEach(function (a, i) { if (byAddress.has(a)) last = byAddress.get(a); asOf[i] = last; });
  var marksAt = new Map();
  W.marks.forEach(function (m) {
    if (!marksAt.has(m.address)) marksAt.set(m.address, []);
    marksAt.get(m.address).push(m);
  });

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (txt !== undefined && txt !== null) e.textContent = String(txt);
    return e;
  }
  function rt(tag, txt) { return el(tag, "rt", txt); }
  function svg(tag, attrs, txt) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (txt !== undefined) e.textContent = String(txt);
    return e;
  }
  function seatName(seat) { return seat >= 1 && seat <= seats ? names[seat - 1] : "seat " + seat; }
  function pct(x) { return Math.round(100 * x) + "%"; }
  function range(p, k) { return p.playouts ? " (" + Math.round(100 * p.low[k]) + "\u2013" + Math.round(100 * p.high[k]) + ")" : ""; }
  // each seat has a colour class (s1 ... s7) and a dash pattern, so the lines read without colour too
  var DASH = ["", "7 3", "2 2.5", "9 2.5 2 2.5", "4 4", "1.5 3.5", "12 3"];
  function swatch(seat) {
    var s = svg("svg", { "class": "sw", viewBox: "0 0 24 8", width: 24, height: 8, "aria-hidden": "true", focusable: "false" });
    s.appendChild(svg("line", { x1: 1, y1: 4, x2: 23, y2: 4, "class": "wl s" + seat, "stroke-dasharray": DASH[(seat - 1) % DASH.length] }));
    return s;
  }

  // jump to a main-line position through the viewer's deep link, as a shared link to it would
  function jump(address) {
    try {
      history.replaceState(null, "", "#" + address);
    } catch (e) {
      location.hash = address;  // a document that may not rewrite its URL: the assignment fires hashchange itself
      return;
    }
    window.dispatchEvent(new Event("hashchange"));
  }

  // --- the estimate of the position shown ---------------------------------------------------------------------
  var now = el("section", "winnow");
  now.id = "winnow";
  now.setAttribute("aria-labelledby", "winnow-h");
  now.appendChild(el("h2", null, "Chance to win")).id = "winnow-h";
  var nowSub = now.appendChild(el("p", "wsub"));
  var bars = now.appendChild(el("ul", "wbars"));
  var fills = [], values = [];
  for (var s = 1; s <= seats; s++) {
    var li = el("li");
    li.setAttribute("data-seat", String(s));
    li.appendChild(swatch(s));
    li.appendChild(rt("span", seatName(s))).className = "rt wseat";
    var bar = li.appendChild(el("span", "wbar"));
    bar.setAttribute("aria-hidden", "true");
    fills.push(bar.appendChild(el("span", "wfill s" + s)));
    values.push(li.appendChild(el("span", "wval")));
    bars.appendChild(li);
  }

  // --- the graph ----------------------------------------------------------------------------------------------
  var G = { w: 320, h: 150, left: 30, right: 8, top: 8, bottom: 22 };
  var N = MAIN.length;
  function gx(i) { return G.left + (N > 1 ? i * (G.w - G.left - G.right) / (N - 1) : (G.w - G.left - G.right) / 2); }
  function gy(c) { return G.top + (1 - c) * (G.h - G.top - G.bottom); }
  var graph = el("section", "wingraph");
  graph.id = "wingraph";
  graph.setAttribute("aria-labelledby", "wingraph-h");
  graph.appendChild(el("h2", null, "Win chances over the game")).id = "wingraph-h";
  var legend = graph.appendChild(el("ul", "wlegend"));
  for (s = 1; s <= seats; s++) {
    var item = el("li");
    item.appendChild(swatch(s));
    item.appendChild(rt("span", seatName(s)));
    legend.appendChild(item);
  }
  var first = points.length ? points[0].address : null, end = points.length ? points[points.length - 1].address : null;
  var plot = svg("svg", { id: "winplot", "class": "winplot", viewBox: "0 0 " + G.w + " " + G.h, role: "img", tabindex: 0,
    "aria-label": points.length ? "Each seat's chance to win after each turn, " + points.length + " estimates from " + first +
      " to " + end + "; the table below gives the figures. Click or tap a turn to show its position; the left and right arrow keys step." :
      "No win chance to draw: the record's [%win] tags do not read." });
  var y0 = G.top, y1 = G.h - G.bottom;
  plot.appendChild(svg("rect", { x: G.left, y: y0, width: G.w - G.left - G.right, height: y1 - y0, "class": "wbg" }));
  [0, 0.25, 0.5, 0.75, 1].forEach(function (c) {
    plot.appendChild(svg("line", { x1: G.left, x2: G.w - G.right, y1: gy(c).toFixed(1), y2: gy(c).toFixed(1), "class": c === 0.5 ? "wgrid half" : "wgrid" }));
    plot.appendChild(svg("text", { x: G.left - 3, y: (gy(c) + 3).toFixed(1), "text-anchor": "end", "class": "wtick" }, Math.round(100 * c) + (c === 1 ? "%" : "")));
  });
  // the Ages: a line at each Age's end, its numeral under its turns
  var from = 0;
  MAIN.forEach(function (a, i) {
    if (!/\.end$/.test(a)) return;
    if (i < N - 1) plot.appendChild(svg("line", { x1: gx(i).toFixed(1), x2: gx(i).toFixed(1), y1: y0, y2: y1, "class": "wage" }));
    plot.appendChild(svg("text", { x: ((gx(from) + gx(i)) / 2).toFixed(1), y: G.h - 7, "text-anchor": "middle", "class": "wtick" }, "Age " + a.split(".")[0]));
    from = i;
  });
  for (s = 1; s <= seats; s++) {
    var d = points.map(function (p, k) { return (k ? "L" : "M") + gx(at.get(p.address)).toFixed(1) + " " + gy(p.chances[s - 1]).toFixed(1); }).join(" ");
    if (d) plot.appendChild(svg("path", { d: d, "class": "wl s" + s, "data-seat": s, "stroke-dasharray": DASH[(s - 1) % DASH.length] }));
  }
  // a computed mark on its seat's line: lichess's dots on the evaluation graph
  W.marks.forEach(function (m) {
    var p = byAddress.get(m.address);
    if (!p || !at.has(m.address) || m.seat < 1 || m.seat > seats) return;
    plot.appendChild(svg("circle", { cx: gx(at.get(m.address)).toFixed(1), cy: gy(p.chances[m.seat - 1]).toFixed(1), r: m["class"] === "blunder" ? 3.2 : 2.4,
      "class": "wmark m-" + m["class"] + " s" + m.seat }));
  });
  var cursor = plot.appendChild(svg("line", { x1: G.left, x2: G.left, y1: y0, y2: y1, "class": "wcursor" }));
  var dots = [];
  for (s = 1; s <= seats; s++) dots.push(plot.appendChild(svg("circle", { cx: 0, cy: 0, r: 3.5, "class": "wdot s" + s })));
  // one target per position, the width of a step, so a click or a tap anywhere above a turn shows it
  var step = N > 1 ? (G.w - G.left - G.right) / (N - 1) : G.w - G.left - G.right;
  var hits = svg("g", { "class": "whits" });
  MAIN.forEach(function (a, i) {
    var r = svg("rect", { x: (gx(i) - step / 2).toFixed(2), y: 0, width: step.toFixed(2), height: G.h, "data-address": a });
    var p = byAddress.get(a);
    r.appendChild(svg("title", {}, a + (p ? ": " + p.chances.map(function (c, k) { return seatName(k + 1) + " " + pct(c); }).join(", ") : "")));
    hits.appendChild(r);
  });
  hits.addEventListener("click", function (e) {
    var a = e.target && e.target.getAttribute ? e.target.getAttribute("data-address") : null;
    if (a) jump(a);
  });
  plot.appendChild(hits);
  graph.appendChild(plot);
  if (W.unread.length) {
    graph.appendChild(el("p", "wunread", "Not drawn: the computed tags at " + W.unread.join(", ") + " do not read as spec 7wn.md \u00a78.4 writes them."));
  }

  // the text alternative: the figures as a table, each turn a button to its position
  var det = graph.appendChild(el("details", "wtable"));
  det.appendChild(el("summary", null, "The figures as a table"));
  var table = det.appendChild(el("table", "sheet"));
  var playouts = points.map(function (p) { return p.playouts; }).filter(function (n) { return n; });
  table.appendChild(el("caption", null, "Each seat's chance to win after the turn" +
    (playouts.length ? ", with its 95 % interval (" + Math.min.apply(null, playouts) + (Math.max.apply(null, playouts) !== Math.min.apply(null, playouts) ? " to " + Math.max.apply(null, playouts) : "") + " playouts a turn)" : "")));
  var thead = table.appendChild(el("thead")), tr = thead.appendChild(el("tr"));
  tr.appendChild(el("th", null, "after")).setAttribute("scope", "col");
  for (s = 1; s <= seats; s++) tr.appendChild(rt("th", seatName(s))).setAttribute("scope", "col");
  var tbody = table.appendChild(el("tbody")), rows = new Map();
  points.forEach(function (p) {
    var row = el("tr");
    var th = row.appendChild(el("th"));
    th.setAttribute("scope", "row");
    var b = th.appendChild(el("button", null, p.address));
    b.type = "button";
    b.setAttribute("aria-label", "Show " + p.address);
    b.addEventListener("click", function () { jump(p.address); });
    p.chances.forEach(function (c, k) { row.appendChild(el("td", null, pct(c) + range(p, k))); });
    rows.set(p.address, row);
    tbody.appendChild(row);
  });

  // --- placing: beside the board (the side column) on a wide screen; on a phone the estimate above the table ----
  var side = document.querySelector(".side");
  side.setAttribute("aria-label", "Win chances, commentary and findings");
  side.insertBefore(graph, side.firstChild);
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 760px)") : null;
  function place() {
    if (narrow && narrow.matches) $("board").insertBefore(now, $("cities"));
    else side.insertBefore(now, side.firstChild);
  }
  place();
  if (narrow) {
    if (narrow.addEventListener) narrow.addEventListener("change", place);
    else if (narrow.addListener) narrow.addListener(place);
  }

  // --- following the position shown -------------------------------------------------------------------------------
  function shown() {  // the main-line address shown, or null (a variation: its address is not a main-line one)
    var b = document.querySelector("#turnlist button[aria-current=step]");
    var label = b ? b.getAttribute("aria-label") || "" : "";
    var a = label.split(", ")[0];
    return at.has(a) ? a : null;
  }
  var lastRow = null;
  function update() {
    var a = shown(), i = a === null ? -1 : at.get(a), p = i >= 0 ? asOf[i] : null;
    if (a === null) nowSub.textContent = "Estimates are of the main line only.";
    else if (!p) nowSub.textContent = "No estimate yet: the first is after " + (first || "a turn") + ".";
    else nowSub.textContent = (p.address === a ? "After " + a : "As of " + p.address + " (none at " + a + ")") +
      (p.playouts ? ", " + p.playouts + " playouts, 95 % interval" : "");
    for (var k = 0; k < seats; k++) {
      fills[k].style.width = p ? (100 * p.chances[k]).toFixed(1) + "%" : "0";
      values[k].textContent = p ? pct(p.chances[k]) + range(p, k) : "\u2013";
    }
    now.classList.toggle("stale", !!p && p.address !== a);
    cursor.setAttribute("visibility", i >= 0 ? "visible" : "hidden");
    if (i >= 0) { cursor.setAttribute("x1", gx(i).toFixed(1)); cursor.setAttribute("x2", gx(i).toFixed(1)); }
    dots.forEach(function (dot, k) {
      var on = p && p.address === a;
      dot.setAttribute("visibility", on ? "visible" : "hidden");
      if (on) { dot.setAttribute("cx", gx(i).toFixed(1)); dot.setAttribute("cy", gy(p.chances[k]).toFixed(1)); }
    });
    if (lastRow) lastRow.classList.remove("here");
    lastRow = a !== null && rows.has(a) ? rows.get(a) : null;
    if (lastRow) lastRow.classList.add("here");
    markLog(a);
  }

  // each action's computed mark in the turn's log, after its text and a human's glyph, which it never replaces
  function markLog(a) {
    (a !== null && marksAt.get(a) || []).forEach(function (m) {
      var li = document.querySelector("#actions > li[data-seat='" + m.seat + "']");
      if (!li || li.querySelector(".cmark")) return;
      var loss = Math.round(100 * m.loss);
      var span = el("span", "cmark m-" + m["class"]);
      span.appendChild(el("span", "ctag", "computed"));
      span.appendChild(document.createTextNode(" " + m["class"] + " \u2212" + loss + "%, best "));
      span.appendChild(rt("code", m.best));
      span.setAttribute("title", "Computed by wnotation analyse (spec 7wn.md \u00a78.4): " + loss +
        " points of win chance below the best alternative of the turn, " + m.best + ".");
      var glyphs = li.querySelectorAll(":scope > .glyph");
      li.insertBefore(span, glyphs.length ? glyphs[glyphs.length - 1].nextSibling : li.querySelector(":scope > ul.log"));
    });
  }

  if (window.MutationObserver) new MutationObserver(update).observe($("label"), { childList: true, characterData: true, subtree: true });
  update();
})();
