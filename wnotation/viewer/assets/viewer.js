// The wnotation viewer: steps through positions that the engine computed in Python (embedded as JSON).
// No rules here, no network, no innerHTML: every text from the record is set with textContent.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("wn-data").textContent);
  // the lines of play: the main line, then each variation (7WN 2) in text order; P and F are the shown line's
  // positions and findings
  var LINES = [{ address: "", positions: D.positions, findings: D.findings }].concat(D.variations || []);
  var line = 0, P = D.positions, F = D.findings;
  var SVG = "http://www.w3.org/2000/svg";
  var names = D.seats.map(function (s) { return s.name; });
  // the source is embedded once, as the lexer's tokens; their texts joined are the source
  var SOURCE = D.tokens ? D.tokens.map(function (t) { return t[1]; }).join("") : D.source;
  var index = new Map();  // an address, main line or variation, to [line, position]
  LINES.forEach(function (l, k) { l.positions.forEach(function (p, i) { index.set(p.address, [k, i]); }); });
  var cur = -1;
  var turnButtons = [];

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (txt !== undefined && txt !== null) e.textContent = String(txt);
    return e;
  }
  function rt(tag, txt) { return el(tag, "rt", txt); }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function svg(tag, attrs, txt) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (txt !== undefined) e.textContent = String(txt);
    return e;
  }
  function seatName(seat) { return seat >= 1 && seat <= names.length ? names[seat - 1] : "seat " + seat; }
  function counted(items) {
    if (!items.length) return "none";
    var order = [], n = new Map();
    items.forEach(function (x) { if (!n.has(x)) { order.push(x); n.set(x, 0); } n.set(x, n.get(x) + 1); });
    return order.map(function (x) { return n.get(x) > 1 ? x + " \u00d7" + n.get(x) : x; }).join(", ");
  }

  // --- static parts ---------------------------------------------------------------------------------------------
  $("title").textContent = D.title;
  if (D.view) {
    $("view").hidden = false;
    $("view").textContent = "As seen by " + D.view.name + ": other seats' hands and hidden cards are not shown.";
  }
  D.tags.forEach(function (t) {
    var row = el("div");
    row.appendChild(rt("dt", t[0]));
    // the [Position] string is for programs; the page says what it means
    row.appendChild(rt("dd", t[0] === "Position" ? "the game starts from a position (see the first board)" : t[1]));
    $("tags").appendChild(row);
  });
  var tagBox = $("tags");
  if (tagBox.scrollHeight > tagBox.clientHeight) {  // a long header scrolls: reachable from the keyboard too
    tagBox.tabIndex = 0;
  }
  var ns = $("static");
  if (ns) ns.hidden = true;  // the page without JavaScript: this script draws all of it
  $("source-h").parentNode.open = false;  // open without JavaScript; here, on request
  if (D.view && D.view.comments) {
    $("view").textContent += " The annotator's comments are kept: they may name cards this seat did not see.";
  }
  var slider = $("slider");
  slider.max = String(P.length - 1);

  var list = $("turnlist");
  function buildList() {
    clear(list);
    turnButtons = [];
    slider.max = String(Math.max(0, P.length - 1));
    P.forEach(function (p, i) {
      var li = el("li");
      var b = el("button", null, line ? p.address.slice(LINES[line].address.length + 1) : p.address);
      b.type = "button";
      var label = p.address + ", " + p.title;
      if (p.findings.length) {
        b.appendChild(el("span", "flag bad", "\u26a0"));
        label += ", " + p.findings.length + " finding" + (p.findings.length > 1 ? "s" : "");
      } else if (hasNotes(p, i)) {
        b.appendChild(el("span", "flag", "\u270e"));
        label += ", with commentary";
      }
      b.setAttribute("aria-label", label);
      b.addEventListener("click", function () { go(i); });
      turnButtons.push(b);
      li.appendChild(b);
      branches(li, p);
      list.appendChild(li);
    });
    if (line) {  // a way back up the tree: the line this variation branches from
      var up = el("li", "up"), parent = LINES[line].parent || "";
      var ub = el("button", "branch", "\u2191 " + (parent ? "variation " + parent : "main line"));
      ub.type = "button";
      var from = (parent ? parent + "." : "") + LINES[line].replaces;  // the turn it replaces, in its parent line
      ub.addEventListener("click", function () {
        var at = index.get(from) || [0, 0];
        setLine(at[0]);
        go(at[1]);
      });
      up.appendChild(ub);
      list.insertBefore(up, list.firstChild);
    }
  }

  // the variations that replace the turn of position p, as branches under it (a tree, as lichess shows one),
  // each labelled with the seats whose actions it changes
  function branches(li, p) {
    var kids = LINES.filter(function (l, k) {
      return k && l.parent === (line ? LINES[line].address : "") && l.address.slice(0, p.address.length + 1) === p.address + "(";
    });
    if (!kids.length) return;
    var ul = el("ul", "vars");
    kids.forEach(function (l) {
      var k = LINES.indexOf(l), first = l.positions[0];
      var seats = first && first.played ? first.played.actions.map(function (a) { return seatName(a.seat); }) : [];
      var item = el("li");
      var b = el("button", "branch", "\u21b3 " + l.address.slice(p.address.length) + (seats.length ? " " + seats.join(", ") : "") +
        (l.findings.length ? " \u26a0" : ""));
      b.type = "button";
      b.setAttribute("aria-label", "variation " + l.address + (seats.length ? ", changing " + seats.join(", ") : ""));
      b.addEventListener("click", function () { setLine(k); go(0); });
      item.appendChild(b);
      ul.appendChild(item);
    });
    li.appendChild(ul);
  }

  // the line selector: shown only when the record has variations
  var choose = $("line");
  if (LINES.length > 1) {
    choose.hidden = false;
    LINES.forEach(function (l, k) {
      var o = el("option", null, k ? "variation " + l.address + (l.findings.length ? " \u26a0" : "") : "main line");
      o.value = String(k);
      choose.appendChild(o);
    });
    choose.addEventListener("change", function () { setLine(Number(choose.value)); go(0); });
  }
  function setLine(k) {
    if (k === line && turnButtons.length) return;
    line = k;
    P = LINES[k].positions;
    F = LINES[k].findings;
    choose.value = String(k);
    cur = -1;
    buildList();
  }
  buildList();

  var all = $("allfindings");
  if (!D.findings.length) {
    all.appendChild(el("li", null, (LINES.length > 1 ? "none in the main line" : "none") +
      ": every action is legal and every stated result agrees"));
  }
  LINES.forEach(function (l, n) {
    l.findings.forEach(function (f, k) {
      var li = finding(f);
      if (n) li.insertBefore(rt("span", "in variation " + l.address + ": "), li.firstChild);
      var at = l.positions.findIndex(function (p) { return p.findings.indexOf(k) >= 0; });
      if (at >= 0) {
        var b = el("button", null, "go to " + l.positions[at].address);
        b.type = "button";
        b.addEventListener("click", function () { setLine(n); go(at); });
        li.appendChild(document.createTextNode(" "));
        li.appendChild(b);
      }
      all.appendChild(li);
    });
  });

  source();

  // --- pieces ---------------------------------------------------------------------------------------------------
  function hasNotes(p, i) {
    var g = D.game;
    if (!line && i === 0 && (g.before.length || g.tags.length || g.glyph)) return true;
    if (!line && i === P.length - 1 && g.after.length) return true;
    var t = p.played;
    if (!t) return false;
    if (t.note.before.length || t.note.after.length || t.note.tags.length) return true;
    return t.actions.some(function (a) {
      var n = a.note, q = a.pick ? a.pick.note : null;
      return n.before.length || n.after.length || n.tags.length || (q && (q.before.length || q.after.length || q.tags.length));
    });
  }

  function finding(f) {
    var li = el("li", "sev-" + f.severity);
    li.appendChild(el("span", "rule", f.rule));
    li.appendChild(document.createTextNode(" " + f.severity + " at " + f.address + ": "));
    li.appendChild(rt("span", f.message));
    if (f.line) {
      var b = el("button", "line", "line " + f.line);
      b.type = "button";
      b.setAttribute("aria-label", "Show line " + f.line + " of the 7WN source");
      b.addEventListener("click", function () { showLine(f.line); });
      li.appendChild(document.createTextNode(" "));
      li.appendChild(b);
    }
    return li;
  }

  // the source pane opened at line n, the line marked and focused (a finding's line, from its button)
  function showLine(n) {
    var line = document.getElementById("L" + n);
    if (!line) return;
    $("source-h").parentNode.open = true;
    var old = document.querySelector("#source .hl");
    if (old) old.classList.remove("hl");
    line.classList.add("hl");
    line.focus();
    if (line.scrollIntoView) line.scrollIntoView({ block: "center" });
  }

  function tags(parent, list) {
    list.forEach(function (t) { parent.appendChild(rt("span", t[0] + (t[1] ? ": " + t[1] : ""))).className = "rt atag"; });
  }

  function note(parent, who, texts) {
    texts.forEach(function (text) {
      var p = el("p");
      if (who) { p.appendChild(rt("span", who)).className = "rt who"; p.appendChild(document.createTextNode(": ")); }
      p.appendChild(withCards(text));
      parent.appendChild(p);
    });
  }

  // card names inside a comment, matched as the reader matches a card name (catalog.normalise: any case, spacing
  // and punctuation free): a printed name at word boundaries, its words apart by up to 3 spaces or marks or none
  // ("lumber-yard", "LumberYard"), a final s of a word after an optional apostrophe ("Craftsmen's Guild"); the
  // longest name first; only a mention written with a capital first letter (a name in prose: "Loom" the card,
  // "loom" the resource, "well" the word). Each becomes the log's mark (colour, letter, tap card); the rest stays text nodes.
  function cardKey(s) { return s.toLowerCase().replace(/[^0-9a-z]+/g, ""); }
  var CARD_KEYS = null, CARD_RE = null;
  function cardPattern() {  // built at the first comment, once the catalogue (CARDS) is read
    CARD_KEYS = new Map();
    var printed = Object.keys(CARDS);
    printed.forEach(function (n) { CARD_KEYS.set(cardKey(n), n); });
    if (!printed.length) return;
    printed.sort(function (a, b) { return cardKey(b).length - cardKey(a).length; });
    var alts = printed.map(function (n) {
      return n.split(/[^0-9A-Za-z]+/).filter(Boolean).map(function (w) {
        return w.replace(/s$/, "['\u2019]?s");
      }).join("[^\\p{L}\\p{N}]{0,3}");
    });
    CARD_RE = new RegExp("(?<![\\p{L}\\p{N}])(?:" + alts.join("|") + ")(?![\\p{L}\\p{N}])", "giu");
  }
  function withCards(text) {
    var span = rt("span", "");
    if (!CARD_KEYS) cardPattern();
    if (!CARD_RE) { span.textContent = text; return span; }
    var at = 0, m;
    CARD_RE.lastIndex = 0;
    while ((m = CARD_RE.exec(text)) !== null) {
      var name = CARD_KEYS.get(cardKey(m[0]));
      // a card is a name in prose: written with a capital ("Loom", "SCRIPTORIUM"); "loom", "well", "press" in lower
      // case are the words of the sentence
      if (!name || m[0].charAt(0) === m[0].charAt(0).toLowerCase()) continue;
      if (m.index > at) span.appendChild(document.createTextNode(text.slice(at, m.index)));
      var mark = mention(name);
      mark.lastChild.textContent = m[0];  // the comment's own spelling; the tap card and tooltip name the card
      span.appendChild(mark);
      at = m.index + m[0].length;
    }
    if (at < text.length) span.appendChild(document.createTextNode(text.slice(at)));
    return span;
  }

  function annotations(parent, who, n) {
    note(parent, who, n.before);
    note(parent, who, n.after);
    if (n.tags.length) {
      var p = el("p");
      if (who) { p.appendChild(rt("span", who)).className = "rt who"; p.appendChild(document.createTextNode(": ")); }
      tags(p, n.tags);
      parent.appendChild(p);
    }
  }

  // the source, one span per line (id L1, L2, …, each ending with its line end) holding the lexer's tokens
  function source() {
    var pre = $("source"), frag = document.createDocumentFragment(), n = 0, line = null;
    clear(pre);  // the page's own copy, for reading without JavaScript
    function newLine() {
      line = el("span", "ln");
      line.id = "L" + (++n);
      line.tabIndex = -1;
      frag.appendChild(line);
    }
    newLine();
    (D.tokens || [["", SOURCE]]).forEach(function (t) {
      t[1].split("\n").forEach(function (part, k) {
        if (k) { line.appendChild(document.createTextNode("\n")); newLine(); }
        if (part) line.appendChild(el("span", t[0] ? "t-" + t[0] : null, part));
      });
    });
    pre.appendChild(frag);
  }

  // --- cards, symbols and tiles (facts from the catalogue, embedded as D.cards) -------------------------------------
  // each colour has a letter as well, so a tile reads without colour
  var COLOUR = { brown: ["R", "raw material"], grey: ["M", "manufactured good"], blue: ["C", "civilian"],
    yellow: ["T", "commercial (trade)"], red: ["W", "military (war)"], green: ["S", "science"], purple: ["G", "guild"] };
  var COLOURS = ["brown", "grey", "yellow", "blue", "green", "red", "purple"];
  var RES = { wood: "Wd", stone: "St", clay: "Cl", ore: "Or", glass: "Gl", papyrus: "Pa", loom: "Lo" };
  var SCI = { tablet: "Tb", compass: "Cp", gear: "Gr", any: "?" };
  var AGE = ["", "I", "II", "III"];
  var CARDS = D.cards || {};

  function badge(cls, txt, label) {
    var s = el("span", "sym " + cls, txt);
    s.setAttribute("title", label);
    return s;
  }
  function costSyms(cost) {
    var f = document.createDocumentFragment();
    if (cost.coins) f.appendChild(badge("coin", cost.coins, cost.coins + " coin" + (cost.coins > 1 ? "s" : "")));
    Object.keys(cost.resources).forEach(function (r) {
      var n = cost.resources[r];
      f.appendChild(badge("res r-" + r, (n > 1 ? n : "") + (RES[r] || r), n + " " + r));
    });
    if (!f.firstChild) f.appendChild(badge("free", "free", "costs nothing"));
    return f;
  }
  function effectSym(e) {
    switch (e.type) {
      case "produce": return badge("res r-" + e.choices[0] + (e.tradable ? "" : " own"),
        (e.amount > 1 ? e.amount : "") + e.choices.map(function (c) { return RES[c] || c; }).join("/"), e.text);
      case "points": return badge("vp", e.amount + "\u2605", e.text);
      case "shields": return badge("shield", e.amount + "\u2694", e.text);
      case "coins": return badge("coin", "+" + e.amount, e.text);
      case "science": return badge("sci", SCI[e.symbol] || e.symbol, e.text);
      case "trade_discount": return badge("trade", "\u21c4" + e.price, e.text);
      case "coins_per": return badge("coin", e.each + "/" + e.counts.map(short).join("/"), e.text);
      case "points_per": return badge("vp", e.each + "\u2605/" + e.counts.map(short).join("/"), e.text);
      case "points_if_wonder_complete": return badge("vp", e.amount + "\u2605 all", e.text);
      default: return badge("power", "\u2726", e.text);
    }
  }
  function short(x) { return x === "wonder_stage" ? "stage" : (COLOUR[x] ? COLOUR[x][0] : x); }
  function effectSyms(effects) {
    var f = document.createDocumentFragment();
    effects.forEach(function (e) { f.appendChild(effectSym(e)); });
    return f;
  }
  function costText(cost) {
    var parts = [];
    if (cost.coins) parts.push(cost.coins + " coin" + (cost.coins > 1 ? "s" : ""));
    Object.keys(cost.resources).forEach(function (r) { var n = cost.resources[r]; parts.push((n > 1 ? n + "\u00d7" : "") + r); });
    return parts.length ? parts.join(" + ") : "free";
  }
  // the facts of a card as lines of text: what the tooltip and the tap card say
  function cardLines(name) {
    var designs = CARDS[name];
    if (!designs) return [name === "?" ? "a card this view does not show" : name];
    var out = [];
    designs.forEach(function (d) {
      var counts = Object.keys(d.copies_by_players).filter(function (n) { return d.copies_by_players[n]; });
      out.push("Age " + AGE[d.age] + ", " + d.colour + " (" + COLOUR[d.colour][1] + ")" +
        (d.colour === "purple" ? ", a guild (drawn: players + 2 guilds)" : counts.length ? ", in games of " + counts.join(", ") + " players" : ""));
      out.push("Cost: " + costText(d.cost));
      out.push("Effect: " + d.effects.map(function (e) { return e.text; }).join("; "));
      if (d.chain_from.length) out.push("Free with: " + d.chain_from.join(" or "));
      if (d.chain_to.length) out.push("Makes free: " + d.chain_to.join(", "));
    });
    return out;
  }
  function cardColour(name) { var d = CARDS[name]; return d ? d[0].colour : null; }

  // a card as a tile: colour, letter, name, cost and effect as symbols; its facts in the tooltip and, on a tap,
  // in the card panel
  var TILES = new Map(), MENTIONS = new Map(), BOARDS = new Map();  // built once, cloned at each step
  function tile(name, extra) {
    if (!TILES.has(name)) TILES.set(name, makeTile(name));
    var t = TILES.get(name).cloneNode(true);
    if (extra) t.classList.add(extra);
    return t;
  }
  function makeTile(name) {
    var colour = cardColour(name), d = CARDS[name];
    var t = el("span", "tile" + (colour ? " c-" + colour : " unknown"));
    t.setAttribute("data-card", name);
    t.setAttribute("title", name + "\n" + cardLines(name).join("\n"));
    t.appendChild(el("span", "letter", colour ? COLOUR[colour][0] : "?")).setAttribute("aria-hidden", "true");
    t.appendChild(rt("span", name)).className = "rt nm";
    if (d) {
      var c = el("span", "cost");
      c.appendChild(costSyms(d[0].cost));
      t.appendChild(c);
      var e = el("span", "eff");
      e.appendChild(effectSyms(d[0].effects));
      t.appendChild(e);
    }
    return t;
  }
  function tiles(parent, names, mark) {
    names.forEach(function (n) { parent.appendChild(tile(n, mark && mark(n))); });
    return parent;
  }
  // a card named in a sentence: its colour letter and name, the facts in the tooltip
  function mention(name) {
    if (!MENTIONS.has(name)) MENTIONS.set(name, makeMention(name));
    return MENTIONS.get(name).cloneNode(true);
  }
  function makeMention(name) {
    var colour = cardColour(name);
    var s = el("span", "mention" + (colour ? " c-" + colour : ""));
    s.setAttribute("data-card", name);
    s.setAttribute("title", cardLines(name).join("\n"));
    s.appendChild(el("span", "letter", colour ? COLOUR[colour][0] : "?")).setAttribute("aria-hidden", "true");
    s.appendChild(rt("span", name));
    return s;
  }
  function showCard(name) {
    var box = $("cardinfo");
    box.hidden = false;
    $("cardinfo-h").textContent = name;
    var facts = $("cardfacts");
    clear(facts);
    cardLines(name).forEach(function (x) { facts.appendChild(rt("p", x)); });
  }
  document.addEventListener("click", function (e) {
    var t = e.target && e.target.closest ? e.target.closest("[data-card]") : null;
    if (t) showCard(t.getAttribute("data-card"));
  });

  function legend() {
    var p = $("legend");
    COLOURS.forEach(function (c) {
      var s = el("span", "key");
      s.appendChild(el("span", "letter c-" + c, COLOUR[c][0])).setAttribute("aria-hidden", "true");
      s.appendChild(document.createTextNode(" " + c + ": " + COLOUR[c][1]));
      p.appendChild(s);
    });
    [["coin", "3", "coins"], ["shield", "1\u2694", "shields"], ["vp", "2\u2605", "points"], ["sci", "Tb", "science: tablet (Tb), compass (Cp), gear (Gr)"],
      ["res r-wood", "Wd", "resources: wood Wd, stone St, clay Cl, ore Or, glass Gl, papyrus Pa, loom Lo"],
      ["trade", "\u21c41", "cheaper trade"], ["power", "\u2726", "a Wonder power"]].forEach(function (k) {
      var s = el("span", "key");
      s.appendChild(el("span", "sym " + k[0], k[1])).setAttribute("aria-hidden", "true");
      s.appendChild(document.createTextNode(" " + k[2]));
      p.appendChild(s);
    });
  }

  // --- one position ---------------------------------------------------------------------------------------------
  function logText(e) { return e.parts.map(function (x) { return typeof x === "number" ? seatName(x) : x; }).join(""); }

  // a log line with its card drawn as a mention (colour letter, tooltip)
  function logLine(tag, e) {
    var li = el(tag, "rt");
    var text = logText(e);
    if (e.card && e.card !== "?" && text.indexOf(e.card) >= 0) {
      var at = text.indexOf(e.card);
      li.appendChild(document.createTextNode(text.slice(0, at)));
      li.appendChild(mention(e.card));
      li.appendChild(document.createTextNode(text.slice(at + e.card.length)));
    } else {
      li.textContent = text;
    }
    return li;
  }

  function renderTurn(p) {
    var ul = $("actions");
    clear(ul);
    var t = p.played;
    $("turn-h").textContent = t ? "Turn " + t.label + (t.extra ? ": Babylon's extra turn" : "") : p.title;
    var bySeat = new Map(), other = [];
    p.log.forEach(function (e) {
      if (t && e.seat && t.actions.some(function (a) { return a.seat === e.seat; })) {
        if (!bySeat.has(e.seat)) bySeat.set(e.seat, []);
        bySeat.get(e.seat).push(e);
      } else {
        other.push(e);
      }
    });
    if (t) {
      t.actions.forEach(function (a) {
        var li = el("li");
        li.setAttribute("data-seat", String(a.seat));
        li.appendChild(rt("span", seatName(a.seat))).className = "rt who";
        li.appendChild(document.createTextNode(": "));
        li.appendChild(el("code", "rt", a.text));
        if (a.note.glyph) li.appendChild(el("span", "glyph", a.note.glyph)).setAttribute("aria-label", "glyph " + a.note.glyph);
        if (a.pick && a.pick.note.glyph) li.appendChild(el("span", "glyph", "pick " + a.pick.note.glyph));
        var log = bySeat.get(a.seat);
        if (log) {
          var sub = el("ul", "log");
          log.forEach(function (x) { sub.appendChild(logLine("li", x)); });
          li.appendChild(sub);
        }
        ul.appendChild(li);
      });
      if (t.note.glyph) ul.appendChild(el("li", "glyph", "turn " + t.note.glyph));
    }
    if (other.length) {
      var li = el("li");
      var sub = el("ul", "log");
      other.forEach(function (x) { sub.appendChild(logLine("li", x)); });
      li.appendChild(sub);
      ul.appendChild(li);
    }
    if (!t && !other.length) ul.appendChild(el("li", null, p.address.slice(-2) === ".0" ? "The cards are dealt." : "Nothing happened."));
  }

  function counter(parent, cls, label, key, value, title) {
    var box = el("span", "counter " + cls);
    box.setAttribute("title", title || label);
    box.appendChild(el("span", "clabel", label));
    var v = el("span", "cval", value);
    v.setAttribute("data-field", key);
    box.appendChild(v);
    parent.appendChild(box);
    return v;
  }

  function wonderBoard(c) {
    var key = c.seat + ":" + c.stages + ":" + c.stage_ages.join(",");
    if (!BOARDS.has(key)) BOARDS.set(key, makeBoard(c));
    return BOARDS.get(key).cloneNode(true);
  }
  function makeBoard(c) {
    var w = (D.wonders || {})[c.wonder + " " + c.side];
    var box = el("div", "wonder");
    var name = el("p", "wname", (w ? w.full_name : c.wonder) + " \u00b7 " + c.side);
    if (w) name.setAttribute("title", "starts with " + w.resource);
    box.appendChild(name);
    var ol = el("ol", "stages");
    ol.setAttribute("aria-label", "Wonder stages: " + c.stages + " of " + c.stages_total + " built");
    for (var k = 0; k < c.stages_total; k++) {
      var built = k < c.stages, st = w ? w.stages[k] : null;
      var li = el("li", "slot" + (built ? " built" : ""));
      var head = el("span", "snum", (k + 1) + (built ? " \u2713 Age " + AGE[c.stage_ages[k]] : ""));
      li.appendChild(head);
      if (st) {
        var cost = el("span", "cost");
        cost.appendChild(costSyms(st.cost));
        li.appendChild(cost);
        var eff = el("span", "eff");
        eff.appendChild(effectSyms(st.effects));
        li.appendChild(eff);
        li.setAttribute("title", "Stage " + (k + 1) + (built ? ", built in Age " + AGE[c.stage_ages[k]] : ", not built") +
          "\nCost: " + costText(st.cost) + "\nEffect: " + st.effects.map(function (e) { return e.text; }).join("; "));
      }
      ol.appendChild(li);
    }
    box.appendChild(ol);
    return box;
  }

  // the seat's plays of this position, drawn on its board: the card built, sold, discarded, staged or picked
  function plays(p, seat) {
    var out = { built: new Set(), lines: [] }, paid = [], got = [];
    p.log.forEach(function (e) {
      if (e.seat !== seat) return;
      if (e.kind === "CardBuilt" || e.kind === "PickedFromDiscard") out.built.add(e.card);
      if (e.kind === "CardBuilt") out.lines.push(["built", e.card, ""]);
      else if (e.kind === "PickedFromDiscard") out.lines.push(["picked from the pile", e.card, ""]);
      else if (e.kind === "CardSold") out.lines.push(["sold", e.card, " for 3 coins"]);
      else if (e.kind === "CardDiscarded") out.lines.push(["discarded", e.card, ""]);
      else if (e.kind === "StageBuilt") out.lines.push(["built stage " + e.stage + " with", e.card, ""]);
      else if (e.kind === "CoinsPaid" && typeof e.to === "number") paid.push(e);
    });
    p.log.forEach(function (e) { if (e.kind === "CoinsPaid" && e.to === seat) got.push(e); });
    out.paid = paid;
    out.got = got;
    return out;
  }

  function renderCities(p) {
    var box = $("cities");
    clear(box);
    var n = p.cities.length;
    box.style.setProperty("--seats", String(n));
    trades = p.log.filter(function (e) { return e.kind === "CoinsPaid" && typeof e.to === "number"; });
    p.cities.forEach(function (c, k) {
      var art = el("article", "city" + (D.view && D.view.seat === c.seat ? " me" : ""));
      art.setAttribute("data-seat", String(c.seat));
      art.setAttribute("aria-label", "City of " + seatName(c.seat));
      var right = ((c.seat - 2 + n) % n) + 1, left = (c.seat % n) + 1;  // R-SEAT: left is seat i+1
      var head = el("div", "chead");
      var nr = rt("span", "\u25c2 " + seatName(right));
      nr.className = "rt nb";
      nr.setAttribute("title", "right neighbour");
      head.appendChild(nr);
      head.appendChild(rt("h3", seatName(c.seat)));
      var nl = rt("span", seatName(left) + " \u25b8");
      nl.className = "rt nb";
      nl.setAttribute("title", "left neighbour");
      head.appendChild(nl);
      art.appendChild(head);
      art.appendChild(wonderBoard(c));
      var cs = el("div", "counters");
      counter(cs, "coin", "coins", "coins", String(c.coins));
      counter(cs, "shield", "shields", "shields", String(c.shields));
      var tok = c.military_tokens;
      counter(cs, "mil", "military", "military", tok.length ? tok.map(function (x) { return (x > 0 ? "+" : "") + x; }).join(" ") + " = " + tok.reduce(function (a, b) { return a + b; }, 0) : "none");
      counter(cs, "vp", p.provisional ? "score so far" : "score", "total", String(p.score[k].total));
      art.appendChild(cs);
      var did = plays(p, c.seat);
      var play = el("ul", "plays");
      did.lines.forEach(function (x) {
        var li = el("li", "play");
        li.appendChild(document.createTextNode(x[0] + " "));
        li.appendChild(mention(x[1]));
        if (x[2]) li.appendChild(el("span", "sym coin", "+3")).setAttribute("title", "3 coins from the bank");
        play.appendChild(li);
      });
      did.paid.forEach(function (e) {
        var dir = e.to === left ? "left" : e.to === right ? "right" : "";
        var li = el("li", "trade-out " + dir);
        li.setAttribute("data-pay", String(trades.indexOf(e)));
        li.appendChild(document.createTextNode((dir === "right" ? "\u2190 " : "") + "paid "));
        li.appendChild(el("span", "sym coin", e.amount));
        li.appendChild(document.createTextNode(" to "));
        li.appendChild(rt("span", seatName(e.to)));
        if (dir === "left") li.appendChild(document.createTextNode(" \u2192"));
        play.appendChild(li);
      });
      did.got.forEach(function (e) {
        var li = el("li", "trade-in");
        li.setAttribute("data-got", String(trades.indexOf(e)));
        li.appendChild(document.createTextNode("took "));
        li.appendChild(el("span", "sym coin", e.amount));
        li.appendChild(document.createTextNode(" from "));
        li.appendChild(rt("span", seatName(e.seat)));
        play.appendChild(li);
      });
      if (play.firstChild) art.appendChild(play);
      var cols = el("div", "cols");
      cols.setAttribute("data-field", "buildings");
      COLOURS.forEach(function (colour) {
        var names = c.buildings[colour] || [];
        if (!names.length) return;
        var col = el("div", "col");
        col.setAttribute("aria-label", colour + " Buildings");
        tiles(col, names, function (nm) { return did.built.has(nm) ? "new" : ""; });
        cols.appendChild(col);
      });
      if (!cols.firstChild) cols.appendChild(el("p", "none", "no Buildings yet"));
      art.appendChild(cols);
      var prod = el("p", "prod");
      prod.setAttribute("data-field", "production");
      prod.appendChild(el("span", "clabel", "produces "));
      c.production.forEach(function (r) {
        var parts = r.split("/");
        prod.appendChild(badge("res r-" + parts[0], parts.map(function (x) { return RES[x] || x; }).join("/"), r));
      });
      c.own_use_only.forEach(function (r) {
        var parts = r.split("/");
        prod.appendChild(badge("res own r-" + parts[0], parts.map(function (x) { return RES[x] || x; }).join("/"), r + " (own use only)"));
      });
      c.science.forEach(function (x) { prod.appendChild(badge("sci", SCI[x] || x, "science: " + x)); });
      art.appendChild(prod);
      if (c.hand.length) {
        var hand = el("div", "hand");
        hand.setAttribute("data-field", "hand");
        hand.setAttribute("aria-label", "Hand of " + seatName(c.seat));
        hand.appendChild(el("span", "clabel", "hand "));
        tiles(hand, c.hand);
        art.appendChild(hand);
      }
      box.appendChild(art);
    });
    if (SIZES) {  // drawn once the boards have their sizes (an off-screen board is laid out only when seen)
      SIZES.disconnect();
      SIZES.observe(box);
      box.querySelectorAll("article.city").forEach(function (a) { SIZES.observe(a); });
    } else {
      drawTrades();
    }
    var pile = $("discard");
    clear(pile);
    if (p.discard.length) {
      tiles(pile, p.discard);
      pile.appendChild(el("span", "count", " (" + p.discard.length + " card" + (p.discard.length > 1 ? "s" : "") + ")"));
    } else {
      pile.textContent = "empty";
    }
    var age = p.age;
    $("pass").textContent = p.ended ? "game over" : "Age " + AGE[age] + ": hands pass " + (age === 2 ? "right \u21ba" : "left \u21bb");
    $("pass").setAttribute("title", age === 2 ? "Age II: each hand goes to the right neighbour (seat i\u22121)" : "Ages I and III: each hand goes to the left neighbour (seat i+1)");
  }

  // the turn's trades as arrows over the table: from the paying seat's board to the receiving neighbour's, the
  // coins on each. The drawing is decorative (aria-hidden): the boards' "paid 2 to …" and "took 2 from …" lines
  // say the same to a screen reader. Redrawn at each step and on a resize, from the boards' own rectangles. Where
  // the boards stack in one column (a phone) no arrow is drawn: seat 1 and its right neighbour, the last seat, lie
  // screens apart, so an arrow between them would be seen at neither end; there each board's trade lines show as
  // coin badges under its counters instead ("paid 2 to" its neighbour, "took 2 from" the other), each naming the other seat.
  var trades = [], INSET = 14;
  function inside(r, from, to) {  // where the segment from the centre of r towards to leaves r shrunk by INSET
    var hw = Math.max(1, r.width / 2 - INSET), hh = Math.max(1, r.height / 2 - INSET);
    var dx = to[0] - from[0], dy = to[1] - from[1];
    var t = Math.min(1, dx ? hw / Math.abs(dx) : Infinity, dy ? hh / Math.abs(dy) : Infinity);
    return [from[0] + t * dx, from[1] + t * dy];
  }
  function drawTrades() {
    var box = $("cities"), old = $("tradearrows");
    if (old) box.removeChild(old);
    var frame = box.getBoundingClientRect(), rects = new Map(), lefts = new Set();
    box.querySelectorAll("article.city").forEach(function (a) {
      var r = a.getBoundingClientRect();
      rects.set(Number(a.getAttribute("data-seat")), r);
      lefts.add(Math.round(r.left));
    });
    box.classList.toggle("stacked", lefts.size < 2);
    if (lefts.size < 2 || !trades.length) return;  // one column: the badges of the boards' trade lines
    var s = svg("svg", { id: "tradearrows", "class": "arrows", width: frame.width.toFixed(0), height: frame.height.toFixed(0),
      viewBox: "0 0 " + frame.width.toFixed(1) + " " + frame.height.toFixed(1), "aria-hidden": "true", focusable: "false" });
    function lineY(sel, r) {  // the height of the board's own trade line, else the board's middle
      var li = box.querySelector(sel), q = li ? li.getBoundingClientRect() : null;
      var y = q && q.height && q.top >= r.top && q.bottom <= r.bottom ? q.top + q.height / 2 : r.top + r.height / 2;
      return y - frame.top;
    }
    trades.forEach(function (e, k) {
      var a = rects.get(e.seat), b = rects.get(e.to);
      if (!a || !b) return;
      var p0, p2, stacked = false, ya = lineY("[data-pay='" + k + "']", a), yb = lineY("[data-got='" + k + "']", b);
      if (Math.abs(a.top - b.top) < 2) {  // side by side: from the payer's trade line to the payee's, edge to edge
        var right = b.left > a.left;
        p0 = [(right ? a.right - INSET : a.left + INSET) - frame.left, ya];
        p2 = [(right ? b.left + INSET : b.right - INSET) - frame.left, yb];
      } else if (Math.abs(a.left - b.left) < 2) {  // one above the other: along the boards' left edge
        stacked = true;
        p0 = [a.left + INSET - frame.left, ya];
        p2 = [b.left + INSET - frame.left, yb];
      } else {
        var ca = [a.left + a.width / 2 - frame.left, a.top + a.height / 2 - frame.top];
        var cb = [b.left + b.width / 2 - frame.left, b.top + b.height / 2 - frame.top];
        p0 = inside(a, ca, cb);
        p2 = inside(b, cb, ca);
      }
      var dx = p2[0] - p0[0], dy = p2[1] - p0[1], len = Math.hypot(dx, dy) || 1;
      // bowed to the arrow's left, so two seats paying each other draw two arcs; the bend stays in the table
      var bow = Math.min(60, len / 4);
      var c = [(p0[0] + p2[0]) / 2 + dy / len * bow, (p0[1] + p2[1]) / 2 - dx / len * bow];
      if (stacked) c[0] = p0[0] - bow;  // out over the column's edge, not across the boards between
      c = [Math.max(0, Math.min(frame.width, c[0])), Math.max(0, Math.min(frame.height, c[1]))];
      var g = svg("g", { "class": "trade", "data-from": e.seat, "data-to": e.to, "data-amount": e.amount,
        "data-x1": p0[0].toFixed(1), "data-y1": p0[1].toFixed(1), "data-x2": p2[0].toFixed(1), "data-y2": p2[1].toFixed(1) });
      var d = "M" + p0[0].toFixed(1) + " " + p0[1].toFixed(1) + " Q" + c[0].toFixed(1) + " " + c[1].toFixed(1) +
        " " + p2[0].toFixed(1) + " " + p2[1].toFixed(1);
      g.appendChild(svg("path", { d: d, "class": "shaft" }));
      var tx = p2[0] - c[0], ty = p2[1] - c[1], tl = Math.hypot(tx, ty) || 1;  // the head along the curve's end
      tx /= tl; ty /= tl;
      var head = [[p2[0], p2[1]], [p2[0] - 11 * tx + 5 * ty, p2[1] - 11 * ty - 5 * tx], [p2[0] - 11 * tx - 5 * ty, p2[1] - 11 * ty + 5 * tx]];
      g.appendChild(svg("polygon", { points: head.map(function (q) { return q[0].toFixed(1) + "," + q[1].toFixed(1); }).join(" "), "class": "head" }));
      var mx = (p0[0] + 2 * c[0] + p2[0]) / 4, my = (p0[1] + 2 * c[1] + p2[1]) / 4;
      g.appendChild(svg("circle", { cx: mx.toFixed(1), cy: my.toFixed(1), r: 11, "class": "coinmark" }));
      g.appendChild(svg("text", { x: mx.toFixed(1), y: (my + 4.5).toFixed(1), "class": "amount" }, String(e.amount)));
      s.appendChild(g);
    });
    box.appendChild(s);
  }
  var SIZES = window.ResizeObserver ? new ResizeObserver(function () { drawTrades(); }) : null;
  var redraw = 0;
  window.addEventListener("resize", function () {
    if (redraw) cancelAnimationFrame(redraw);
    redraw = requestAnimationFrame(function () { redraw = 0; drawTrades(); });
  });

  function banner(p) {
    var box = $("banner"), final = !p.provisional && D.final;
    box.hidden = !final;
    $("board").classList.toggle("ended", !!final);
    var tb = $("tiebreak");
    clear(tb);
    if (!final) return;
    var winners = D.final.winners, h = $("banner-h");
    clear(h);
    h.appendChild(document.createTextNode(winners.length > 1 ? "Shared victory: " : "Winner: "));
    winners.forEach(function (w, k) {  // each name isolated, so a bidi control in one cannot reorder the line
      if (k) h.appendChild(document.createTextNode(" and "));
      h.appendChild(rt("span", w));
    });
    var top = D.final.seats.filter(function (s) { return s.rank === 1; })[0];
    if (top) h.appendChild(document.createTextNode(" with " + top.total + " points"));
    D.final.tie_break.forEach(function (x) { tb.appendChild(rt("li", x)); });
  }

  function renderScore(p) {
    var table = $("scoretable");
    clear(table);
    var final = !p.provisional && D.final;
    var cap = el("caption", null, final ? "Final score sheet (ties on points are broken by coins)" : "Provisional score: as if the game ended at " + p.address);
    table.appendChild(cap);
    var head = el("thead"), tr = el("tr");
    tr.appendChild(el("th", null, ""));
    D.seats.forEach(function (s) { var th = rt("th", s.name); th.setAttribute("scope", "col"); tr.appendChild(th); });
    head.appendChild(tr);
    table.appendChild(head);
    var body = el("tbody");
    var wonder = el("tr");
    wonder.appendChild(el("th", null, "wonder board")).setAttribute("scope", "row");
    D.seats.forEach(function (s) { wonder.appendChild(el("td", null, s.wonder + " " + s.side)); });
    body.appendChild(wonder);
    D.rows.forEach(function (row) {
      var r = el("tr", "r-" + row);
      r.appendChild(el("th", null, row)).setAttribute("scope", "row");
      p.score.forEach(function (line, k) {
        var td = el("td", row === "total" && line.rank === 1 ? "win" : null, line[row]);
        td.setAttribute("data-seat", String(k + 1));
        td.setAttribute("data-row", row);
        r.appendChild(td);
      });
      body.appendChild(r);
    });
    table.appendChild(body);
    chart(p);
  }

  function chart(p) {
    var box = $("chart");
    clear(box);
    if (!p.by_age.length) return;  // a score pad has no Ages to chart
    var rows = p.by_age, n = rows.length;
    var lo = 0, hi = 1;
    rows.forEach(function (r) { r.forEach(function (v) { lo = Math.min(lo, v); hi = Math.max(hi, v); }); });
    var W = 480, left = 110, right = 40, bar = 10, gap = 8, H = 24 + n * (3 * bar + gap);
    var scale = (W - left - right) / (hi - lo), zero = left + (-lo) * scale;
    var s = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "Points earned in each Age, per seat, as of " + p.address });
    ["Age I", "Age II", "Age III"].forEach(function (a, k) {
      s.appendChild(svg("rect", { x: left + k * 70, y: 4, width: 10, height: 8, "class": "a" + (k + 1) }));
      s.appendChild(svg("text", { x: left + k * 70 + 14, y: 12 }, a));
    });
    rows.forEach(function (r, i) {
      var y = 20 + i * (3 * bar + gap);
      var label = svg("text", { x: left - 6, y: y + 2 * bar, "text-anchor": "end" }, names[i].length > 16 ? names[i].slice(0, 15) + "\u2026" : names[i]);
      s.appendChild(label);
      r.forEach(function (v, k) {
        var x = v < 0 ? zero + v * scale : zero;
        s.appendChild(svg("rect", { x: x.toFixed(1), y: y + k * bar, width: Math.max(Math.abs(v) * scale, 0.5).toFixed(1), height: bar - 1, "class": "a" + (k + 1) }));
        if (v) s.appendChild(svg("text", { x: (zero + Math.max(v, 0) * scale + 3).toFixed(1), y: y + k * bar + bar - 1 }, v));
      });
    });
    s.appendChild(svg("line", { x1: zero.toFixed(1), x2: zero.toFixed(1), y1: 16, y2: H, "class": "axis" }));
    box.appendChild(s);
  }

  function renderNotes(p, i) {
    var box = $("notes");
    clear(box);
    var g = D.game, t = p.played;
    if (i === 0 && !line) {
      if (g.glyph) note(box, null, ["game " + g.glyph]);
      annotations(box, null, { before: g.before, after: [], tags: g.tags });
    }
    if (t) {
      note(box, null, t.note.before);
      t.actions.forEach(function (a) {
        annotations(box, seatName(a.seat), a.note);
        if (a.pick) annotations(box, seatName(a.seat) + " (pick)", a.pick.note);
      });
      annotations(box, t.label, { before: [], after: t.note.after, tags: t.note.tags });
    }
    if (!line && (i === P.length - 1 || !P.length)) note(box, null, g.after);
    if (!box.firstChild) box.appendChild(el("p", "empty", "No commentary at " + p.address + "."));
    var fl = $("findings");
    clear(fl);
    p.findings.forEach(function (k) { fl.appendChild(finding(F[k])); });
    if (!p.findings.length) fl.appendChild(el("li", null, "none here"));
  }

  function go(i, keepHash) {
    if (i < 0 || i >= P.length) return;
    var p = P[i];
    if (i !== cur) {
      renderTurn(p);
      renderCities(p);
      renderScore(p);
      banner(p);
      renderNotes(p, i);
      if (cur >= 0) turnButtons[cur].removeAttribute("aria-current");
      turnButtons[i].setAttribute("aria-current", "step");
      keepVisible(list, turnButtons[i].parentNode);
      cur = i;
    }
    $("label").textContent = (line ? "variation " + LINES[line].address + ", " : "") + p.address + ": " + p.title +
      " (" + (i + 1) + " of " + P.length + ")";
    slider.value = String(i);
    slider.setAttribute("aria-valuetext", p.address + ", " + p.title);
    if (!keepHash) setHash(p.address);
  }

  // the current turn kept in sight inside the turn list (a column on wide screens, a strip on phones), without
  // scrolling the page itself
  function keepVisible(box, item) {
    var b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
    if (box.scrollWidth > box.clientWidth && (r.left < b.left || r.right > b.right)) {
      box.scrollLeft += r.left - b.left - (box.clientWidth - r.width) / 2;
    } else if (box.scrollHeight > box.clientHeight && (r.top < b.top || r.bottom > b.bottom)) {
      box.scrollTop += r.top - b.top - (box.clientHeight - r.height) / 2;
    }
  }

  function setHash(address) {
    var want = "#" + address;
    if (location.hash === want) return;
    try {
      history.replaceState(null, "", want);
    } catch (e) {
      // a document that may not rewrite its URL still shows the position
    }
  }

  function fromHash() {
    var h = location.hash.slice(1);
    try { h = decodeURIComponent(h); } catch (e) { return null; }
    // a main-line address (II.3) or one inside a variation (I.2(1).I.3), in any letter case
    var m = /^((?:I{1,3}\.[1-7]\([1-9][0-9]*\)\.)*)(I{1,3})\.([0-7]|end)$/i.exec(h.trim());
    if (!m) return null;
    var a = m[1].toUpperCase() + m[2].toUpperCase() + "." + m[3].toLowerCase();
    if (!index.has(a)) return null;
    var at = index.get(a);
    setLine(at[0]);
    return at[1];
  }

  // --- controls ---------------------------------------------------------------------------------------------------
  $("first").addEventListener("click", function () { go(0); });
  $("prev").addEventListener("click", function () { go(Math.max(0, cur - 1)); });
  $("next").addEventListener("click", function () { go(Math.min(P.length - 1, cur + 1)); });
  $("last").addEventListener("click", function () { go(P.length - 1); });
  slider.addEventListener("input", function () { go(Number(slider.value)); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider) return;
    var to;
    if (e.key === "ArrowRight") to = cur + 1;
    else if (e.key === "ArrowLeft") to = cur - 1;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = P.length - 1;
    else return;
    e.preventDefault();
    go(Math.max(0, Math.min(P.length - 1, to)));
  });
  window.addEventListener("hashchange", function () {
    var i = fromHash();
    if (i !== null) go(i, true);
  });
  $("download").addEventListener("click", function () {
    var url = URL.createObjectURL(new Blob([SOURCE], { type: "text/plain;charset=utf-8" }));
    var a = document.createElement("a");
    a.href = url;
    a.download = D.download;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  });

  legend();
  if (!P.length) {  // nothing to step through: no stepping, no turn, no discard pile, no points by Age
    ["first", "prev", "next", "last", "slider", "turns", "turn", "discards", "by-age-h", "chart"].forEach(function (id) { $(id).hidden = true; });
    document.querySelector(".layout").classList.add("no-turns");
  }
  if (P.length) {
    var start = fromHash();
    go(start === null ? 0 : start, start !== null);
  } else if (D.final) {  // a score-pad record: its score sheet, and no turn to replay
    $("label").textContent = "A score-pad record: the final score sheet, no turn to replay.";
    renderScore({ provisional: false, score: D.final.seats, address: "the end", by_age: [] });
    banner({ provisional: false });
    renderNotes({ address: "the end", findings: D.findings.map(function (f, k) { return k; }) }, 0);
  } else {
    $("label").textContent = "No position to show: the engine replays no turn of this record (see the findings).";
  }
})();
