// The solver panel of the analysis board: the value of every legal action, refined live as the
// search reports, each with its line (best play on both sides after it), and the same verdicts
// on the cards themselves. What is proven (won, lost, a value, or bounds) and what is only an
// estimate are kept apart: an estimate is labelled "estimate" and never drawn as a verdict.
import { del, post } from "./api.js";
import { el } from "./board.js";

const $ = (id) => document.getElementById(id);
const SETTLE_MS = 150;

export function fraction(text) {
  if (text === null || text === undefined) return NaN;
  const [a, b] = String(text).split("/");
  return b ? Number(a) / Number(b) : Number(a);
}

function percent(x) { return `${Math.round(x * 100)}%`; }

// The estimate of an unknown action (the shared contract: kind "estimate", win_rate, low,
// high, playouts, line), or null.
export function estimateOf(answer) {
  const estimate = answer && answer.status !== "solved" ? answer.estimate : null;
  return estimate && estimate.kind === "estimate" ? estimate : null;
}

// How far up the list an action goes: what is proven first, then the estimate.
function rank(answer) {
  if (!answer) return [-1, -1, -1];
  const lower = fraction(answer.status === "solved" ? answer.value : answer.lower);
  const upper = fraction(answer.status === "solved" ? answer.value : answer.upper);
  const estimate = estimateOf(answer);
  return [lower, upper, estimate ? estimate.win_rate : upper];
}

function compareRanks(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return b[i] - a[i];
  return 0;
}

function lineOf(move, line) {
  if (!line || !line.length) return [];
  return line[0] === move ? line : [move, ...line];
}

export class SolverPanel {
  constructor(board) {
    this.board = board;
    this.job = null;
    this.linesJob = null;
    this.sources = [];
    this.rows = new Map();
    this.summary = null;
    this.team = null;
    this.cache = new Map();
    $("solve-on").onchange = () => this.positionChanged();
    $("solve-seconds").onchange = () => { this.cache.clear(); this.positionChanged(); };
    $("solve-concept").onchange = () => { this.cache.clear(); this.positionChanged(); };
    $("show-line").onclick = () => this.showBest();
    window.addEventListener("pagehide", () => this.stop(true));
  }

  // Stop the searches of the position shown; resolves once the server has them cancelled
  // (so that the next one is not refused for want of a free slot).
  stop(beacon = false) {
    for (const source of this.sources) source.close();
    this.sources = [];
    const cancelled = [];
    for (const id of [this.job, this.linesJob]) {
      if (!id || this.finished.has(id)) continue;
      this.finished.add(id);
      if (beacon && navigator.sendBeacon) navigator.sendBeacon(`/api/jobs/${id}/cancel`);
      else cancelled.push(del(`/api/jobs/${id}`).catch(() => {}));
    }
    this.job = null;
    this.linesJob = null;
    return Promise.all(cancelled);
  }

  get finished() {
    if (!this._finished) this._finished = new Set();
    return this._finished;
  }

  cacheKey() {
    return JSON.stringify([this.board.positionKey(), $("solve-seconds").value, $("solve-concept").value]);
  }

  async positionChanged() {
    const generation = this.generation = (this.generation || 0) + 1;
    const stopped = this.stop();
    const view = this.board.view;
    $("concept-box").hidden = !view || view.teams.length < 3;
    this.rows = new Map();
    this.summary = null;
    this.team = null;
    this.key = this.cacheKey();
    $("show-line").disabled = true;
    if (!$("solve-on").checked || !view) {
      this.status("Tick “analyse” to see the value of each legal action.");
      this.redraw();
      return;
    }
    if (view.terminal) { this.status(view.result); this.redraw(); return; }
    const cached = this.cache.get(this.key);
    if (cached) {
      this.rows = new Map(cached.rows);
      this.summary = cached.summary;
      this.team = cached.team;
      this.finishedText();
      this.redraw();
      return;
    }
    this.redraw();
    // moving through the moves quickly starts a search only where the board stops
    await Promise.all([stopped, new Promise((resolve) => setTimeout(resolve, SETTLE_MS))]);
    if (generation !== this.generation) return;
    const body = {
      toml: this.board.toml, moves: this.board.moves,
      seconds: Number($("solve-seconds").value) || 10,
    };
    if (view.teams.length >= 3) body.concept = $("solve-concept").value;
    let started;
    try {
      started = await post("/api/omens/solve", body);
    } catch (error) { if (generation === this.generation) this.status(error.message); return; }
    if (generation !== this.generation) { del(`/api/jobs/${started.id}`).catch(() => {}); return; }
    this.job = started.id;
    this.status(`searching (at most ${started.seconds} s)…`);
    this.listen(started, (message) => { if (generation === this.generation) this.news(message, view); });
  }

  listen(started, onMessage) {
    const source = new EventSource(started.events);
    this.sources.push(source);
    source.onmessage = (event) => onMessage(JSON.parse(event.data));
    source.addEventListener("end", () => { source.close(); this.finished.add(started.id); });
    source.onerror = () => source.close();
  }

  status(text) { $("solver-status").textContent = text; }

  teamText() { return this.team ? `seat${this.team.length > 1 ? "s" : ""} ${this.team.join(" and ")}` : "the team to act"; }

  news(message, view) {
    if (this.board.view !== view) return;
    if (message.type === "start") {
      this.team = message.team;
      this.concept = message.concept;
      for (const move of message.moves) if (!this.rows.has(move)) this.rows.set(move, null);
      this.status(`values for ${this.teamText()} (${message.concept}); searching…`);
    } else if (message.type === "move") {
      const before = this.rows.get(message.move);
      const merged = { ...message };
      if ((!merged.line || !merged.line.length) && before && before.line && before.line.length
          && before.status === "solved" && merged.status === "solved") merged.line = before.line;
      this.rows.set(message.move, merged);
      const open = [...this.rows.values()].filter((m) => !m || m.status !== "solved").length;
      this.status(`values for ${this.teamText()}: searching, ${open} action(s) still open`);
    } else if (message.type === "done") {
      this.finished.add(this.job);
      this.summary = message;
      if (message.line && message.best && message.best.length) {
        const best = this.rows.get(message.best[0]);
        if (best && (!best.line || !best.line.length)) best.line = message.line;
      }
      this.finishedText();
      this.remember();
      this.requestLines(view);
    } else if (message.type === "error") {
      this.finished.add(this.job);
      this.status(message.error);
    }
    this.redraw();
  }

  finishedText() {
    const message = this.summary;
    if (!message) return;
    if (message.status === "solved" && message.best) {
      const verdict = message.verdict === "won" ? "won" : message.verdict === "lost" ? "lost" : `value ${message.value}`;
      this.status(`solved: ${verdict} for ${this.teamText()}; best: ${message.best.join(", ")}`);
    } else {
      this.status(`${message.reason || message.status}: what is proven is shown; the rest is unknown`);
    }
  }

  remember() {
    this.cache.set(this.key, { rows: [...this.rows], summary: this.summary, team: this.team });
    if (this.cache.size > 200) this.cache.delete(this.cache.keys().next().value);
  }

  // The line of every proven action that has none yet (the search keeps the best one's only).
  async requestLines(view) {
    const generation = this.generation;
    const wanted = [...this.rows].filter(([, answer]) => answer && answer.status === "solved"
      && !(answer.line && answer.line.length)).map(([move]) => move);
    if (!wanted.length) return;
    wanted.sort((a, b) => compareRanks(rank(this.rows.get(a)), rank(this.rows.get(b))));
    const body = {
      toml: this.board.toml, moves: this.board.moves, candidates: wanted,
      seconds: Number($("solve-seconds").value) || 10,
    };
    if (view.teams.length >= 3) body.concept = $("solve-concept").value;
    let started;
    try {
      started = await post("/api/omens/lines", body);
    } catch (error) { return; } // the values stand without their lines
    if (generation !== this.generation) { del(`/api/jobs/${started.id}`).catch(() => {}); return; }
    this.linesJob = started.id;
    const key = this.key;
    this.listen(started, (message) => {
      if (generation !== this.generation || message.type !== "line") return;
      const answer = this.rows.get(message.move);
      if (answer && message.line.length) answer.line = message.line;
      if (this.key === key) this.remember();
      this.redraw();
    });
  }

  redraw() {
    this.drawRows();
    this.board.drawMarks();
  }

  sorted() {
    return [...this.rows].sort((a, b) => compareRanks(rank(a[1]), rank(b[1])));
  }

  drawRows() {
    const body = $("solver-table").querySelector("tbody");
    body.replaceChildren();
    const best = new Set(this.summary && this.summary.best ? this.summary.best : []);
    let anyLine = false;
    for (const [move, answer] of this.sorted()) {
      const verdict = answer ? answer.verdict : "unknown";
      const estimate = estimateOf(answer);
      let value;
      if (!answer) value = el("span", { class: "muted", text: "…" });
      else if (answer.status === "solved") value = el("span", { class: "proven", text: answer.value, title: "the exact value, proven" });
      else value = el("span", { class: "bounds", text: `${answer.lower}…${answer.upper}`, title: "proven bounds: the value lies between them" });
      const line = answer && answer.status === "solved" ? lineOf(move, answer.line)
        : estimate ? lineOf(move, estimate.line) : [];
      anyLine = anyLine || line.length > 0;
      body.append(el("tr", { class: "move-row" + (best.has(move) ? " best" : ""), "data-move": move },
        el("td", { class: "action" }, el("button", {
          class: "play-move", title: "play this move on the board", onclick: () => this.board.play(move),
        }, move)),
        el("td", {}, el("span", { class: `verdict ${verdict}`, text: answer ? verdict : "…" })),
        el("td", { class: "value" }, value,
          estimate ? el("span", {
            class: "estimate", "data-estimate": move,
            title: `an estimate from ${estimate.playouts.toLocaleString()} playouts, not a proof: `
              + `win rate ${percent(estimate.win_rate)}, interval ${percent(estimate.low)} to ${percent(estimate.high)}`,
          }, `estimate ${percent(estimate.win_rate)} `, el("small", { text: `(${percent(estimate.low)}–${percent(estimate.high)})` })) : null),
        el("td", { class: "muted nodes", text: !answer ? "" : answer.same_as ? `as ${answer.same_as}`
          : `${Number(answer.nodes || 0).toLocaleString()} nodes` })));
      body.append(el("tr", { class: "line-row", "data-line-of": move },
        el("td", { colspan: 4 }, this.lineCell(move, answer, line, estimate))));
    }
    $("show-line").disabled = !anyLine;
  }

  lineCell(move, answer, line, estimate) {
    if (!line.length) {
      const why = !answer ? "" : answer.status === "solved" ? "line: searching…" : "line: not proven yet";
      return el("span", { class: "muted small", text: why });
    }
    const chips = line.map((text, index) => el("button", {
      class: "pv-move", "data-index": index + 1,
      title: "show the line up to here, without playing it",
      onclick: () => this.board.showLine(line, index + 1, move, Boolean(estimate)),
    }, text));
    return el("div", { class: "pv" + (estimate ? " estimated" : "") },
      estimate ? el("span", { class: "estimate-label", text: "expected line (estimate):" }) : null,
      ...chips,
      el("button", {
        class: "show", "data-show": move, title: "show this line on the board without playing it",
        onclick: () => this.board.showLine(line, 1, move, Boolean(estimate)),
      }, "show"));
  }

  bestLine() {
    if (this.summary && this.summary.line && this.summary.line.length) return this.summary.line;
    const first = this.sorted().find(([, answer]) => answer && answer.status === "solved" && answer.line && answer.line.length);
    return first ? lineOf(first[0], first[1].line) : [];
  }

  showBest() {
    const line = this.bestLine();
    if (line.length) this.board.showLine(line, 1, line[0], false);
  }

  // What each clickable thing on the table is worth: for every next click, the best of the
  // actions it leads to (a card with several actions shows its best one). Values are the
  // team to act's. Returns a Map from click token to {cls, text, title}.
  marks(view, chooser) {
    const marks = new Map();
    if (!view || view.terminal || view.to_act === "simultaneous" || !this.rows.size) return marks;
    const groups = new Map();
    const depth = chooser.prefix.length;
    for (const action of chooser.candidates()) {
      const token = action.clicks[depth];
      if (!token) continue;
      if (!groups.has(token)) groups.set(token, []);
      groups.get(token).push(this.rows.get(action.text));
    }
    for (const [token, answers] of groups) marks.set(token, this.mark(answers));
    return marks;
  }

  mark(answers) {
    const who = `for ${this.teamText()}`;
    if (answers.some((a) => !a)) return { cls: "pending", text: "…", title: "not searched yet" };
    const lower = Math.max(...answers.map((a) => fraction(a.status === "solved" ? a.value : a.lower)));
    const upper = Math.max(...answers.map((a) => fraction(a.status === "solved" ? a.value : a.upper)));
    const several = answers.length > 1 ? " (its best action)" : "";
    const won = answers.find((a) => a.verdict === "won");
    if (won) return { cls: "won", text: "win", title: `won ${who}, proven${several}` };
    if (lower === upper) {
      const exact = answers.find((a) => a.status === "solved" && fraction(a.value) === upper);
      if (exact && exact.verdict === "lost") return { cls: "lost", text: "loss", title: `lost ${who}, proven${several}` };
      const text = exact ? exact.value : String(upper);
      return { cls: "value", text, title: `value ${text} ${who}, proven${several}` };
    }
    const estimates = answers.map(estimateOf).filter(Boolean);
    if (estimates.length) {
      const best = Math.max(...estimates.map((e) => e.win_rate));
      return { cls: "estimate", text: `est. ${percent(best)}`, title: `an estimate, not a proof: ${percent(best)} ${who}; proven bounds ${lower.toFixed(2)}…${upper.toFixed(2)}` };
    }
    return { cls: "unknown", text: "?", title: `unknown ${who}: between ${lower} and ${upper}, proven` };
  }
}
