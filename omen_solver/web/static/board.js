// The Omens board: seats around the table, cards, the choice of an action by clicking, the
// move list and the explained trace. The server says, for each legal action, the clicks that
// choose it ("hand:SEAT:CARD", "play:CARD", "seat:SEAT", "word:WORD"); the board lights what
// may be clicked next and plays the action once the clicks name exactly one.

export const state = { cards: new Map(), rules: {} };

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function cardName(value) {
  const card = state.cards.get(value);
  return card ? `${card.name} (${value})` : String(value);
}

export function cardEl(value, opts = {}) {
  const card = state.cards.get(value) || { name: "?", colours: [], timing: "end", text: "" };
  const colour = card.colours.length > 1 ? "all" : card.colours[0] || "none";
  const mark = card.timing === "now" ? "now" : "end";
  const classes = ["card", `c-${colour}`, card.timing === "now" ? "now" : "end"];
  if (opts.small) classes.push("small");
  if (opts.target) classes.push("target");
  if (opts.chosen) classes.push("chosen");
  if (opts.law) classes.push("law-card");
  if (opts.hinted) classes.push("hinted");
  const title = `${card.name} (${value}), ${card.colours.join("/")}, ${card.timing}: ${card.text}`;
  const tag = opts.token ? "button" : "div";
  return el(tag, {
    class: classes.join(" "), title, "data-card": value, "data-token": opts.token,
    "aria-label": `${card.name} ${value}`, onclick: opts.onclick,
  },
  el("span", { class: "value", text: value }),
  el("span", { class: "mark", text: mark, title: card.timing === "now" ? "now: resolved at once" : "end: resolved at the end of the bout" }),
  el("span", { class: "name", text: card.name }),
  opts.by ? el("span", { class: "by", text: opts.by }) : null,
  el("span", { class: "band" }),
  opts.mark ? markEl(opts.mark) : null);
}

// A verdict or score on a card or seat: what the solver says the action is worth.
export function markEl(mark) {
  return el("span", { class: `score ${mark.cls}`, title: mark.title, "data-score": mark.cls }, mark.text);
}

// -- choosing an action by clicks ----------------------------------------------------------

export class Chooser {
  constructor(view, onChoose) {
    this.view = view;
    this.onChoose = onChoose;
    this.prefix = [];
  }
  get legal() { return this.view ? this.view.legal : []; }
  candidates() {
    return this.legal.filter((a) => this.prefix.every((token, i) => a.clicks[i] === token));
  }
  next() {
    const tokens = new Set();
    for (const action of this.candidates()) {
      if (action.clicks.length > this.prefix.length) tokens.add(action.clicks[this.prefix.length]);
    }
    return tokens;
  }
  click(token) {
    if (!this.next().has(token)) return false;
    this.prefix.push(token);
    const left = this.candidates();
    const exact = left.filter((a) => a.clicks.length === this.prefix.length);
    if (left.length === 1 || (exact.length === 1 && left.length === 1)) {
      const action = left[0];
      this.prefix = [];
      this.onChoose(action.text);
    } else if (exact.length === 1 && !left.some((a) => a.clicks.length > this.prefix.length)) {
      this.prefix = [];
      this.onChoose(exact[0].text);
    }
    return true;
  }
  reset() { this.prefix = []; }
}

function tokenWords(token) {
  const [kind, ...rest] = token.split(":");
  if (kind === "hand") return `${cardName(Number(rest[1]))} from seat ${rest[0]}'s hand`;
  if (kind === "play") return `${cardName(Number(rest[0]))} in play`;
  if (kind === "seat") return `seat ${rest[0]}`;
  return rest.join(":");
}

// -- the table -------------------------------------------------------------------------------

function seatOrder(players) {
  // Clockwise around the table: the top row left to right, the bottom row right to left.
  const top = Math.ceil(players / 2);
  const seats = Array.from({ length: players }, (_, i) => i + 1);
  return { top: seats.slice(0, top), bottom: seats.slice(top).reverse(), cols: top };
}


// opts: marks (a Map from click token to the solver's mark), hints (a Set of tokens to point
// at), readOnly (nothing to click: a line shown, not played).
export function renderTable(root, view, chooser, redraw, opts = {}) {
  root.replaceChildren();
  if (!view) return;
  const next = chooser && !opts.readOnly ? chooser.next() : new Set();
  const chosen = chooser && !opts.readOnly ? new Set(chooser.prefix) : new Set();
  const marks = opts.marks || new Map();
  const hints = opts.hints || new Set();
  const onToken = (token) => (event) => {
    event.preventDefault();
    if (chooser && chooser.click(token)) redraw();
  };
  const order = seatOrder(view.players);
  const narrow = window.matchMedia("(max-width: 520px)").matches;
  root.style.setProperty("--cols", order.cols);
  const front = new Map();
  for (const placed of view.in_play) {
    if (!front.has(placed.before)) front.set(placed.before, []);
    front.get(placed.before).push(placed);
  }
  const seatEl = (number) => {
    const seat = view.seats[number - 1];
    const toAct = view.acting.includes(number);
    const seatToken = `seat:${number}`;
    const head = el("div", { class: "seat-head" },
      el("button", {
        class: "seat-name" + (next.has(seatToken) ? " target" : "") + (hints.has(seatToken) ? " hinted" : ""),
        "data-token": seatToken,
        disabled: !next.has(seatToken), onclick: onToken(seatToken),
        title: next.has(seatToken) ? `choose seat ${number}` : "",
      }, `Seat ${number}`, marks.has(seatToken) ? markEl(marks.get(seatToken)) : null),
      el("span", { class: "team-badge", title: `team ${seat.team}: seats ${view.teams[seat.team - 1].join(" and ")}` },
        `team ${seat.team}`),
      seat.laurels ? el("span", { class: "laurel", title: "the team's Player Aids, laurel side up: rounds won" },
        `❧ ${seat.laurels} round${seat.laurels > 1 ? "s" : ""} won`) : null,
      seat.leader ? el("span", { class: "tag", text: "leads" }) : null,
      seat.played ? el("span", { class: "tag", text: "has played" }) : null,
      toAct ? el("span", { class: "tag", text: "to act" }) : null);
    const inFront = (front.get(number) || []).map((p) => {
      const token = `play:${p.card}`;
      return cardEl(p.card, {
        token: next.has(token) ? token : undefined, target: next.has(token), chosen: chosen.has(token),
        law: view.law && view.law.card === p.card, hinted: hints.has(token), mark: marks.get(token),
        by: p.by !== number ? `by seat ${p.by}` : "", onclick: onToken(token),
      });
    });
    const hand = seat.hand.map((card) => {
      const token = `hand:${number}:${card}`;
      return cardEl(card, {
        token: next.has(token) ? token : undefined, target: next.has(token), chosen: chosen.has(token),
        small: true, onclick: onToken(token), hinted: hints.has(token), mark: marks.get(token),
      });
    });
    return el("div", { class: `seat team-${seat.team}` + (toAct ? " to-act" : ""), "data-seat": number },
      head,
      el("div", { class: "seat-body" },
        el("div", { class: "front-block" },
          el("div", { class: "zone-label", text: "in front" }),
          el("div", { class: "zone front" }, inFront.length ? inFront : el("span", { class: "tag", text: "—" }))),
        el("div", { class: "hand-block" },
          el("div", { class: "zone-label", text: `hand (${seat.hand.length})` }),
          el("div", { class: "zone hand" }, hand.length ? hand : el("span", { class: "tag", text: "no card" })))));
  };
  const centre = el("div", { class: "centre", id: "centre" },
    el("span", { text: `Round ${view.round} · bout ${view.bout}` }),
    el("span", { text: `seat ${view.leader} leads` }),
    view.law ? el("span", { class: "law", id: "law" }, `Law: ${view.law.direction} than ${view.law.card}`) : null,
    view.terminal ? el("span", { class: "result", id: "result", text: view.result })
      : el("span", { class: "acting", id: "acting" }, actingText(view)),
    lastBout(view));
  if (narrow) {
    // One column on a phone: the state of play first, then the seats clockwise from the one
    // to act (or the leader), so that the hand to play from is never below the screen.
    const first = typeof view.to_act === "number" ? view.to_act
      : view.acting && view.acting.length ? view.acting[0] : view.leader;
    const seats = view.seats.map((seat) => seat.seat);
    const from = Math.max(0, seats.indexOf(first));
    root.append(centre, ...[...seats.slice(from), ...seats.slice(0, from)].map(seatEl));
  } else {
    root.append(...order.top.map(seatEl), centre, ...order.bottom.map(seatEl));
  }
}

function actingText(view) {
  if (view.pending) return view.pending;
  if (view.to_act === "chance") return "chance acts";
  if (view.to_act === "simultaneous") return `seats ${view.acting.join(" and ")} act at once`;
  return `seat ${view.to_act} to play`;
}

function lastBout(view) {
  for (let i = view.history.length - 1; i >= 0; i--) {
    const bout = view.history[i].bout;
    if (bout) {
      const discarded = bout.discarded.map(cardName).join(", ") || "none";
      const won = bout.winner ? `seat ${bout.winner} won bout ${bout.number}` : `bout ${bout.number}: no winner`;
      return el("span", { class: "last-bout", id: "last-bout" }, `Last bout: ${won}; discarded: ${discarded}` +
        (bout.round_winner_team ? `; round won by seats ${bout.round_winner_team.join(" and ")}` : ""));
    }
  }
  return null;
}

export function renderChoices(root, view, chooser, redraw, opts = {}) {
  root.replaceChildren();
  if (!view) return;
  if (view.terminal) {
    root.append(el("div", { class: "prompt", text: view.result }));
    return;
  }
  const left = chooser.candidates();
  const next = chooser.next();
  const words = [...next].filter((t) => t.startsWith("word:"));
  const prompt = chooser.prefix.length
    ? `Chosen: ${chooser.prefix.map(tokenWords).join(" → ")}. Next: click a lit card or seat, or pick below.`
    : `${actingText(view)}: click a lit card (or pick an action below).`;
  root.append(el("div", { class: "prompt", id: opts.promptId || "prompt", text: prompt }));
  if (words.length) {
    const marks = opts.marks || new Map();
    root.append(el("div", { class: "words" }, words.map((token) => el("button", {
      "data-token": token, onclick: () => { if (chooser.click(token)) redraw(); },
    }, token.slice(5), marks.has(token) ? markEl(marks.get(token)) : null))));
  }
  const list = el("div", { class: "actions", id: opts.listId || "actions" });
  for (const action of left) {
    list.append(el("button", {
      "data-action": action.text, title: action.text,
      onclick: () => { chooser.reset(); chooser.onChoose(action.text); },
    }, el("code", { text: action.text }), el("span", { class: "label", text: action.label })));
  }
  root.append(list);
  if (chooser.prefix.length) {
    root.append(el("div", { class: "words" }, el("button", {
      id: "choice-cancel", onclick: () => { chooser.reset(); redraw(); },
    }, "Cancel this choice")));
  }
}

// -- the trace -------------------------------------------------------------------------------

export function ruleChip(rule) {
  const known = state.rules[rule];
  const chip = el("button", {
    class: "rule", "data-rule": rule, title: known ? `${known.statement} (${known.source})` : rule,
  }, rule);
  chip.addEventListener("click", () => {
    const open = chip.nextElementSibling && chip.nextElementSibling.classList.contains("rule-text");
    if (open) chip.nextElementSibling.remove();
    else chip.after(el("div", { class: "rule-text" }, known ? `${known.statement} — ${known.source}` : "(no statement)"));
  });
  return chip;
}

export function renderSteps(steps) {
  return el("ul", {}, steps.map((step) => el("li", {}, ruleChip(step.rule), step.text)));
}

export function boutLine(bout) {
  const discarded = bout.discarded.map(cardName).join(", ") || "none";
  const won = bout.winner ? `Bout ${bout.number} won by seat ${bout.winner}` : `Bout ${bout.number}: no winner`;
  let text = `${won}; discarded: ${discarded}`;
  if (bout.round_winner_team) text += `. Round won by seats ${bout.round_winner_team.join(" and ")}`;
  else text += `. Seat ${bout.next_leader} leads next`;
  return el("div", { class: "bout", text });
}

export function renderTrace(root, history) {
  root.replaceChildren();
  history.forEach((entry, index) => {
    const block = el("div", { class: "step", "data-index": index },
      el("div", { class: "move" }, `${index + 1}. `, el("code", { text: entry.move }),
        el("span", { class: "muted", text: ` ${entry.by}${entry.from_file ? " (in the file)" : ""}` })),
      renderSteps(entry.steps),
      entry.bout ? boutLine(entry.bout) : null);
    root.append(block);
  });
  root.scrollTop = root.scrollHeight;
}
