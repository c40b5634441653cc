// The analysis board's page: tabs, the Omens board with its move list, links, import and
// export, and the solver panel. Plain ES modules, no build step.
import { ApiError, decodeLink, del, encodeLink, get, post } from "./api.js";
import {
  Chooser, cardName, el, renderChoices, renderTable, renderTrace, state,
} from "./board.js";
import { Editor } from "./editor.js";
import { OmenBoard } from "./omen.js";
import { Puzzles } from "./puzzles.js";

// The rulebook's worked example (rules file 000, "How a Bout Is Resolved"), two plays to go.
const WORKED_EXAMPLE = `# The rulebook's worked example (rules file 000, "How a Bout Is Resolved", EXAMPLE):
# seats 5 and 6 still to play; play 5:11 and 6:19 to see the printed result.
game = "omens"
players = 6
teams = [[1, 4], [2, 5], [3, 6]]
title = "The rulebook's worked example"

[hands]
1 = [24, 2]
2 = [18, 3]
3 = [4, 5]
4 = [8, 6]
5 = [11, 7]
6 = [19, 35]

[bout]
leader = 1
moves = ["1:24 ask 2", "2:shows 3", "2:18", "3:4", "4:8"]
`;

const $ = (id) => document.getElementById(id);

export function showError(error) {
  const box = $("error");
  if (!error) { box.hidden = true; box.textContent = ""; return; }
  box.textContent = error instanceof ApiError || error instanceof Error ? error.message : String(error);
  box.hidden = false;
}

// -- the dialog for import and export ---------------------------------------------------------

export function openDialog(title, text, onLoad) {
  const dialog = $("dialog");
  $("dialog-title").textContent = title;
  $("dialog-text").value = text || "";
  $("dialog-ok").hidden = !onLoad;
  $("dialog-file").hidden = !onLoad;
  $("dialog-file").value = "";
  $("dialog-file").onchange = async () => {
    const file = $("dialog-file").files[0];
    if (file) $("dialog-text").value = await file.text();
  };
  dialog.onclose = () => {
    if (dialog.returnValue === "ok" && onLoad) onLoad($("dialog-text").value);
  };
  dialog.returnValue = "";
  dialog.showModal();
}

// -- the Omens board ------------------------------------------------------------------------------

class Board {
  constructor() {
    this.toml = WORKED_EXAMPLE;
    this.moves = [];
    this.redo = [];
    this.view = null;
    this.chooser = new Chooser(null, (text) => this.play(text));
    this.generation = 0;
    this.solver = new SolverPanel(this);
    $("undo").onclick = () => this.undo();
    $("redo").onclick = () => this.redoMove();
    $("link").onclick = () => this.copyLink();
    $("export").onclick = () => this.exportToml();
    $("import").onclick = () => openDialog("Import a position file (TOML)", "", (text) => this.setPosition(text, []));
    window.addEventListener("resize", () => this.draw());
  }

  async setPosition(toml, moves, redo = []) {
    const previous = [this.toml, this.moves, this.redo];
    this.toml = toml;
    this.moves = moves;
    this.redo = redo;
    if (!(await this.refresh())) [this.toml, this.moves, this.redo] = previous;
  }

  async refresh() {
    const generation = ++this.generation;
    try {
      const view = await post("/api/omens/board", { toml: this.toml, moves: this.moves });
      if (generation !== this.generation) return true;
      this.view = view;
      this.chooser = new Chooser(view, (text) => this.play(text));
      showError(null);
      this.draw();
      this.updateLink();
      this.solver.positionChanged();
      return true;
    } catch (error) {
      showError(error);
      return false;
    }
  }

  draw() {
    const view = this.view;
    if (!view) return;
    $("board-title").textContent = view.title || "Omens position";
    const redraw = () => this.draw();
    renderTable($("table"), view, this.chooser, redraw);
    renderChoices($("choices"), view, this.chooser, redraw);
    renderTrace($("trace"), view.history);
    this.drawMoves();
    $("undo").disabled = this.moves.length === 0;
    $("redo").disabled = this.redo.length === 0;
  }

  drawMoves() {
    const list = $("move-list");
    list.replaceChildren();
    const fileMoves = this.view.history.filter((h) => h.from_file).length;
    this.view.history.forEach((entry, index) => {
      const board = index - fileMoves;
      const item = el("li", {
        class: entry.from_file ? "file" : (index === this.view.history.length - 1 ? "current" : ""),
        title: entry.from_file ? "a move of the position file" : "go back to just after this move",
        "data-move": entry.move,
      }, entry.move);
      if (!entry.from_file) item.onclick = () => this.goTo(board + 1);
      list.append(item);
    });
    for (const undone of this.redo.slice().reverse()) {
      list.append(el("li", { class: "undone", title: "undone: Redo plays it again" }, undone));
    }
  }

  async play(text) {
    const [moves, redo] = [this.moves, this.redo];
    this.moves = [...moves, text];
    this.redo = [];
    if (!(await this.refresh())) [this.moves, this.redo] = [moves, redo];
  }

  async undo() {
    if (!this.moves.length) return;
    const last = this.moves[this.moves.length - 1];
    await this.setPosition(this.toml, this.moves.slice(0, -1), [...this.redo, last]);
  }

  async redoMove() {
    if (!this.redo.length) return;
    const next = this.redo[this.redo.length - 1];
    await this.setPosition(this.toml, [...this.moves, next], this.redo.slice(0, -1));
  }

  async goTo(count) {
    const undone = this.moves.slice(count).reverse();
    await this.setPosition(this.toml, this.moves.slice(0, count), [...this.redo, ...undone]);
  }

  async link() {
    return `${location.origin}${location.pathname}#omens=${await encodeLink({ t: this.toml, m: this.moves })}`;
  }

  async updateLink() {
    const code = await encodeLink({ t: this.toml, m: this.moves });
    if (currentTab() === "board") history.replaceState(null, "", `#omens=${code}`);
    this.lastLink = `${location.origin}${location.pathname}#omens=${code}`;
  }

  async copyLink() {
    const link = await this.link();
    try {
      await navigator.clipboard.writeText(link);
      $("board-title").textContent = "Link copied: it holds this position and its moves";
    } catch (problem) {
      openDialog("The link to this position", link, null);
    }
  }

  async exportToml() {
    try {
      const { toml } = await post("/api/omens/export", { toml: this.toml, moves: this.moves });
      openDialog("This position with its moves (TOML): omen-solver omens play FILE replays it", toml, null);
    } catch (error) { showError(error); }
  }
}

// -- the solver panel -------------------------------------------------------------------------

class SolverPanel {
  constructor(board) {
    this.board = board;
    this.job = null;
    this.source = null;
    this.rows = new Map();
    this.summary = null;
    $("solve-on").onchange = () => this.positionChanged();
    $("solve-seconds").onchange = () => this.positionChanged();
    $("solve-concept").onchange = () => this.positionChanged();
    $("show-line").onclick = () => this.showLine();
    window.addEventListener("pagehide", () => this.stop(true));
  }

  stop(beacon = false) {
    if (this.source) { this.source.close(); this.source = null; }
    if (this.job && !this.jobDone) {
      const id = this.job;
      this.replaced = id;
      if (beacon && navigator.sendBeacon) navigator.sendBeacon(`/api/jobs/${id}/cancel`);
      else del(`/api/jobs/${id}`).catch(() => {});
    }
    this.job = null;
  }

  async positionChanged() {
    this.stop();
    const view = this.board.view;
    $("concept-box").hidden = !view || view.teams.length < 3;
    this.rows = new Map();
    this.summary = null;
    this.drawRows();
    $("show-line").disabled = true;
    if (!$("solve-on").checked || !view) { $("solver-status").textContent = "Tick “analyse” to see the value of each legal action."; return; }
    if (view.terminal) { $("solver-status").textContent = view.result; return; }
    const body = {
      toml: this.board.toml, moves: this.board.moves,
      seconds: Number($("solve-seconds").value) || 10,
    };
    if (view.teams.length >= 3) body.concept = $("solve-concept").value;
    if (this.replaced) body.replaces = this.replaced;
    let started;
    try {
      started = await post("/api/omens/solve", body);
    } catch (error) { $("solver-status").textContent = error.message; return; }
    if (this.board.view !== view) { del(`/api/jobs/${started.id}`).catch(() => {}); return; }
    this.job = started.id;
    this.jobDone = false;
    $("solver-status").textContent = `searching (at most ${started.seconds} s)…`;
    const source = new EventSource(started.events);
    this.source = source;
    source.onmessage = (event) => this.news(JSON.parse(event.data));
    source.addEventListener("end", () => { source.close(); this.jobDone = true; });
    source.onerror = () => source.close();
  }

  news(message) {
    if (message.type === "start") {
      $("solver-status").textContent = `values for seats ${message.team.join(" and ")} (${message.concept}); searching…`;
      this.team = message.team;
      for (const move of message.moves) this.rows.set(move, null);
    } else if (message.type === "move") {
      this.rows.set(message.move, message);
      const open = [...this.rows.values()].filter((m) => !m || m.status !== "solved").length;
      $("solver-status").textContent = `values for seats ${this.team.join(" and ")}: searching, ${open} action(s) still open`;
      $("show-line").disabled = false;
    } else if (message.type === "done") {
      this.jobDone = true;
      this.summary = message;
      if (message.status === "solved" && message.best) {
        $("solver-status").textContent = `solved: ${message.verdict === "won" ? "won" : message.verdict === "lost" ? "lost" : "value " + message.value} for seats ${(this.team || []).join(" and ")}; best: ${message.best.join(", ")}`;
      } else {
        $("solver-status").textContent = message.reason || message.status;
      }
    } else if (message.type === "error") {
      this.jobDone = true;
      $("solver-status").textContent = message.error;
    }
    this.drawRows();
  }

  drawRows() {
    const body = $("solver-table").querySelector("tbody");
    body.replaceChildren();
    const best = new Set(this.summary && this.summary.best ? this.summary.best : []);
    // proven first (won, an exact value, then unknown by estimate), lost last
    const rank = (answer) => !answer ? [2, 0] : answer.verdict === "won" ? [0, 0]
      : answer.verdict === "value" ? [1, -Number(eval_fraction(answer.value))]
      : answer.verdict === "lost" ? [3, 0] : [2, answer.estimate ? -answer.estimate.win_rate : 0];
    const rows = [...this.rows].map(([move, answer], index) => [move, answer, rank(answer), index]);
    rows.sort((a, b) => a[2][0] - b[2][0] || a[2][1] - b[2][1] || a[3] - b[3]);
    for (const [move, answer] of rows) {
      const verdict = answer ? answer.verdict : "unknown";
      const value = !answer ? "…" : answer.status === "solved" ? answer.value : `${answer.lower}…${answer.upper}`;
      const estimate = answer && answer.status !== "solved" && answer.estimate;
      body.append(el("tr", { class: best.has(move) ? "best" : "", "data-move": move },
        el("td", { class: "action", text: move }),
        el("td", {}, el("span", { class: `verdict ${verdict}`, text: answer ? verdict : "…" })),
        el("td", { text: value, title: "value, or proven bounds while unknown" }),
        el("td", estimate ? { class: "estimate", title: `estimate, not a proof: the win rate of seats ${(this.team || []).join(" and ")} in ${estimate.playouts} playouts, 95 % interval; expected line: ${estimate.line.join(" ")}`,
          text: `estimate ${estimate.win_rate.toFixed(2)} [${estimate.low.toFixed(2)}–${estimate.high.toFixed(2)}]` } : { text: "" }),
        el("td", { class: "muted", text: !answer ? "" : answer.same_as ? `as ${answer.same_as}`
          : `${answer.nodes.toLocaleString()} nodes` })));
    }
  }

  bestLine() {
    if (this.summary && this.summary.line) return this.summary.line;
    let best = null;
    for (const answer of this.rows.values()) {
      if (answer && answer.status === "solved" && (!best || Number(eval_fraction(answer.value)) > Number(eval_fraction(best.value)))) best = answer;
    }
    return best ? best.line : [];
  }

  async showLine() {
    const line = this.bestLine();
    if (!line.length) return;
    $("show-line").disabled = true;
    const start = this.board.moves.length;
    for (const [index, move] of line.entries()) {
      if (this.board.moves.length !== start + index) break; // the user moved meanwhile
      await this.board.play(move);
      await new Promise((resolve) => setTimeout(resolve, 350));
    }
  }
}

function eval_fraction(text) {
  const [a, b] = String(text).split("/");
  return b ? Number(a) / Number(b) : Number(a);
}

// -- tabs and start ----------------------------------------------------------------------------

function currentTab() {
  const selected = document.querySelector(".tabs [aria-selected=true]");
  return selected ? selected.dataset.tab : "board";
}

export function showTab(name) {
  for (const button of document.querySelectorAll(".tabs button")) {
    button.setAttribute("aria-selected", String(button.dataset.tab === name));
  }
  for (const view of document.querySelectorAll(".view")) view.hidden = view.dataset.view !== name;
  showError(null);
}

async function start() {
  const [cards, rules, options] = await Promise.all([
    get("/api/omens/cards"), get("/api/omens/rules"), get("/api/omens/options"),
  ]);
  for (const card of cards) state.cards.set(card.value, card);
  state.rules = rules;
  state.options = options;
  const board = new Board();
  // the board is shown once it holds the new position, not the one before for a moment
  const playOnBoard = async (toml) => { await board.setPosition(toml, []); showTab("board"); };
  const editor = new Editor(options, playOnBoard);
  const puzzles = new Puzzles(playOnBoard);
  const omen = new OmenBoard();
  window.omenBoard = { board, editor, puzzles, omen, cardName };
  $("edit-this").onclick = () => { editor.load(board.view.position); showTab("editor"); };
  for (const button of document.querySelectorAll(".tabs button")) {
    button.onclick = async () => {
      showTab(button.dataset.tab);
      if (button.dataset.tab === "puzzles") await puzzles.open();
      if (button.dataset.tab === "omen") await omen.open();
      if (button.dataset.tab === "board") board.updateLink();
    };
  }
  const hash = location.hash.slice(1);
  const [kind, code] = [hash.split("=")[0], hash.slice(hash.indexOf("=") + 1)];
  if (kind === "omens" && code) {
    try {
      const payload = await decodeLink(code);
      await board.setPosition(payload.t, payload.m || []);
      if (!board.view) await board.setPosition(WORKED_EXAMPLE, []);
    } catch (error) {
      showError(`this link cannot be read: ${error.message}`);
      await board.setPosition(WORKED_EXAMPLE, []);
    }
  } else {
    await board.setPosition(WORKED_EXAMPLE, []);
    if (kind === "puzzle" && code) { showTab("puzzles"); await puzzles.open(code); }
    if (kind === "omen") { showTab("omen"); await omen.open(); }
  }
  document.body.dataset.ready = "1";
}

start().catch((error) => showError(error));
