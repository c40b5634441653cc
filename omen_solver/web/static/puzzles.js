// The puzzle trainer: the bundled puzzles of both games (and generated Omens ones). A puzzle
// asks for a move ("which play wins?") or for the position's value ("can they win?"). A wrong
// move is "not this one" and the player tries again; a hint points at a card; the solution
// is shown only when asked for or once the puzzle is solved. Solved puzzles are remembered in
// this browser (localStorage).
import { get, post, postWhenFree } from "./api.js";
import { Chooser, el, renderChoices, renderSteps, renderTable } from "./board.js";
import { renderOmenActions, renderOmenBoard } from "./omen.js";

const $ = (id) => document.getElementById(id);
const STORE = "omen-solver.puzzles";
const RANK = { seen: 1, helped: 2, solved: 3 };

// What this browser remembers of each puzzle: solved (first try, no hint), helped (solved
// after a wrong try or a hint), seen (the solution shown before it was solved).
export class Progress {
  constructor() {
    try { this.data = JSON.parse(localStorage.getItem(STORE) || "{}") || {}; } catch (problem) { this.data = {}; }
  }
  get(name) { return this.data[name] || null; }
  record(name, status) {
    const before = this.data[name];
    if (before && RANK[before.status] >= RANK[status]) return;
    this.data[name] = { status, when: new Date().toISOString() };
    try { localStorage.setItem(STORE, JSON.stringify(this.data)); } catch (problem) { /* private mode: kept for this visit */ }
  }
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function seatsText(team) {
  return team && team.length ? `seat${team.length > 1 ? "s" : ""} ${team.join(" and ")}` : "the side asked about";
}

// A puzzle's rating as the list shows it: the stated rating of a deep puzzle (its depth in
// bouts, the tempting plays that fail, the solver's nodes), and how many first moves are best.
export function ratingText(entry) {
  const parts = [];
  if (entry.game === "omens" && entry.players) parts.push(`${entry.players} players`);
  const rating = entry.rating || {};
  if (rating.depth) parts.push(`${rating.depth} bouts deep`);
  if (rating.tempting) parts.push(plural(rating.tempting, "tempting play"));
  if (entry.kind === "value") parts.push("a question of value");
  else if (entry.plays && entry.plays.named) {
    const of = `${entry.plays.complete ? "" : "at least "}${entry.plays.named} of ${entry.plays.legal} plays`;
    parts.push(`${of} ${entry.plays.named === 1 && entry.plays.complete ? "wins" : "win"}`);
  }
  if (rating.nodes) parts.push(`${rating.nodes.toLocaleString()} nodes`);
  return parts.join(" · ");
}

function explainedLine(title, line, id) {
  return el("div", { class: "line", id }, title ? el("h3", { text: title }) : null,
    line.map((entry, i) => el("div", { class: "trace" },
      el("div", { class: "move" }, `${i + 1}. `, el("code", { text: entry.move })),
      renderSteps(entry.steps))));
}

function valueWords(value, team) {
  if (value === "1") return `1: ${seatsText(team)} win`;
  if (value === "0") return `0: ${seatsText(team)} lose`;
  return value;
}

export class Puzzles {
  constructor(onOpenBoard) {
    this.onOpenBoard = onOpenBoard;
    this.lists = {};
    this.game = "omens";
    this.current = null;
    this.generated = [];
    this.progress = new Progress();
    $("gen-go").onclick = () => this.generate();
    $("puzzle-hint").onclick = () => this.hint();
    $("puzzle-solution").onclick = () => this.solution();
    $("puzzle-board").onclick = () => this.openOnBoard();
    $("puzzle-next").onclick = () => this.next();
    $("hide-solved").onchange = () => this.drawList();
    for (const button of document.querySelectorAll("#puzzle-games button")) {
      button.onclick = () => this.showGame(button.dataset.game);
    }
  }

  async list(game) {
    if (!this.lists[game]) this.lists[game] = await get(`/api/puzzles?game=${game}`);
    return this.lists[game];
  }

  entries() {
    return [...(this.game === "omens" ? this.generated : []), ...(this.lists[this.game] || [])];
  }

  async open(name) {
    const game = name ? name.split("/")[0] : this.game;
    await this.showGame(game === "omen" ? "omen" : "omens", false);
    if (name) await this.select(name);
    else if (!this.current && this.entries().length) await this.select(this.entries()[0].name, false);
  }

  async showGame(game, pickFirst = true) {
    this.game = game;
    for (const button of document.querySelectorAll("#puzzle-games button")) {
      button.setAttribute("aria-pressed", String(button.dataset.game === game));
    }
    $("gen-row").hidden = game !== "omens";
    await this.list(game);
    this.drawList();
    if (pickFirst && (!this.current || this.current.game !== game) && this.entries().length) {
      await this.select(this.entries()[0].name, false);
    }
  }

  drawList() {
    const list = $("puzzle-list");
    list.replaceChildren();
    const hide = $("hide-solved").checked;
    const entries = this.entries();
    let solved = 0;
    for (const entry of entries) {
      const done = this.progress.get(entry.name);
      if (done && done.status !== "seen") solved += 1;
      if (hide && done && done.status !== "seen" && !(this.current && this.current.name === entry.name)) continue;
      const mark = !done ? "" : done.status === "solved" ? "✓" : done.status === "helped" ? "✓" : "○";
      const title = !done ? "" : done.status === "solved" ? "solved" : done.status === "helped" ? "solved with help" : "solution seen";
      list.append(el("li", {
        class: (this.current && this.current.name === entry.name ? "current" : "") + (done ? ` done-${done.status}` : ""),
        "data-puzzle": entry.name, tabindex: 0,
        onclick: () => this.select(entry.name),
        onkeydown: (event) => { if (event.key === "Enter") this.select(entry.name); },
      },
      el("div", { class: "p-title" }, el("span", { class: "done-mark", title, text: mark }), entry.title),
      el("div", { class: "p-meta", text: ratingText(entry) }),
      el("div", { class: "q", text: entry.question || "" })));
    }
    $("puzzle-count").textContent = `${solved} of ${entries.length} solved`;
  }

  // -- one puzzle ------------------------------------------------------------------------------

  async select(name, scroll = true) {
    const generation = this.generation = (this.generation || 0) + 1;
    const generated = this.generated.find((g) => g.name === name);
    let puzzle;
    let view;
    try {
      puzzle = generated || await get(`/api/puzzles/${name}`);
      const endpoint = (puzzle.game || "omens") === "omen" ? "/api/omen/board" : "/api/omens/board";
      view = await post(endpoint, { toml: puzzle.toml });
    } catch (error) {
      if (generation === this.generation) this.feedback("bad", error.message);
      return;
    }
    if (generation !== this.generation) return; // another puzzle was picked meanwhile
    const game = puzzle.game || "omens";
    this.current = { ...puzzle, name, game, generated: Boolean(generated) };
    this.state = { tries: 0, hinted: false, solved: false, shown: false, hints: new Set(), after: null };
    this.view = view;
    $("puzzle-title").textContent = puzzle.title;
    $("puzzle-rating").textContent = ratingText(this.current);
    $("puzzle-question").textContent = puzzle.question || "";
    $("puzzle-result").hidden = true;
    $("puzzle-result").replaceChildren();
    this.feedback(null);
    this.chooser = new Chooser(game === "omens" ? view : null, (text) => this.attempt(text));
    this.drawValues();
    this.draw();
    this.drawList();
    history.replaceState(null, "", `#puzzle=${name}`);
    if (scroll) this.bringIntoView();
  }

  // On a phone the list sits above the puzzle: fold it and show the puzzle from its top.
  bringIntoView() {
    if (!window.matchMedia("(max-width: 900px)").matches) return;
    $("puzzle-picker").open = false;
    $("puzzle-main").scrollIntoView({ block: "start" });
  }

  solvable() { return !this.state.solved && this.current.kind !== "value"; }

  draw() {
    const omen = this.current.game === "omen";
    $("puzzle-table").hidden = omen;
    $("puzzle-omen").hidden = !omen;
    // Omen's actions are buttons, not cards: they come first, right under the question
    $("puzzle-omen-actions").hidden = !omen;
    $("puzzle-choices").hidden = omen;
    const view = this.state.after || this.view;
    if (omen) {
      renderOmenBoard($("puzzle-omen"), view);
      const prompt = this.state.after ? "The position after your move." : this.current.kind === "value"
        ? "Answer with a value above; the moves are shown, not played." : "Your move: click an action.";
      renderOmenActions($("puzzle-omen-actions"), view, this.solvable() && !this.state.after ? (text) => this.attempt(text) : null,
        "puzzle-actions", prompt);
      return;
    }
    const redraw = () => this.draw();
    const readOnly = !this.solvable() || Boolean(this.state.after);
    renderTable($("puzzle-table"), view, this.chooser, redraw, { readOnly, hints: this.state.hints });
    if (readOnly) {
      $("puzzle-choices").replaceChildren(el("div", { class: "prompt", id: "puzzle-prompt",
        text: this.state.after ? "The position after your move." : "Answer with a value above; open the position on the board to play it." }));
    } else {
      renderChoices($("puzzle-choices"), view, this.chooser, redraw, { promptId: "puzzle-prompt", listId: "puzzle-actions" });
    }
  }

  drawValues() {
    const box = $("puzzle-values");
    const puzzle = this.current;
    box.hidden = puzzle.kind !== "value";
    if (box.hidden) { box.replaceChildren(); return; }
    box.replaceChildren(
      el("div", { class: "small muted", text: `What is the position worth to ${seatsText(puzzle.team)}, with best play on every side? `
        + "1 is a sure win and 0 a sure loss; in between, their chance of winning (or their share of a shared victory)." }),
      el("div", { class: "value-buttons" }, (puzzle.choices || []).map((value) => el("button", {
        "data-value": value, onclick: () => this.answerValue(value),
      }, valueWords(value, puzzle.team)))));
  }

  feedback(kind, text, ...extra) {
    const box = $("puzzle-feedback");
    if (!kind) { box.hidden = true; box.replaceChildren(); return; }
    box.hidden = false;
    box.className = `feedback ${kind}`;
    box.replaceChildren(el("div", { id: "puzzle-verdict", class: "verdict-line", text }), ...extra);
  }

  async attempt(move) {
    if (!this.solvable()) return;
    const puzzle = this.current;
    const state = this.state;
    this.feedback("checking", `Checking ${move}…`);
    let reply;
    try {
      reply = puzzle.generated
        ? await postWhenFree("/api/puzzles/try", { toml: puzzle.toml, move })
        : await postWhenFree(`/api/puzzles/${puzzle.name}/try`, { move });
    } catch (error) {
      if (this.state === state) this.feedback("bad", error.message);
      return;
    }
    if (this.state !== state) return; // another puzzle was picked meanwhile
    state.tries += 1;
    if (reply.right === true) {
      const endpoint = puzzle.game === "omen" ? "/api/omen/board" : "/api/omens/board";
      let after = null;
      try { after = await post(endpoint, { toml: puzzle.toml, moves: [reply.move] }); } catch (error) { /* the board stays */ }
      if (this.state !== state) return;
      state.after = after;
      this.chooser.reset();
      this.draw();
      await this.solved(reply, `Right: ${reply.move}.`);
      return;
    }
    if (reply.right === false) {
      const why = el("details", { id: "puzzle-why" }, el("summary", { text: "Why not?" }),
        reply.value === null ? null
          : el("p", { class: "small", text: `${reply.move} is ${reply.verdict === "lost" ? "lost" : `worth ${reply.value}`} for ${seatsText(puzzle.team)}: the best answer to it goes like this.` }),
        reply.line.length ? explainedLine("The refutation", reply.line, "puzzle-refutation")
          : el("p", { class: "small muted", text: "(The search ran out of time before it found the answer to it.)" }));
      this.feedback("wrong", `Not this one: ${reply.move}. Try again.`, why);
    } else {
      this.feedback("unsure", `The solver ran out of time on ${reply.move}: try another move, or ask for the solution.`);
    }
    this.chooser.reset();
    this.draw();
  }

  async answerValue(value) {
    const puzzle = this.current;
    const state = this.state;
    if (state.solved) return;
    let reply;
    try {
      reply = puzzle.generated
        ? await post("/api/puzzles/try", { toml: puzzle.toml, value })
        : await post(`/api/puzzles/${puzzle.name}/try`, { value });
    } catch (error) { if (this.state === state) this.feedback("bad", error.message); return; }
    if (this.state !== state) return;
    state.tries += 1;
    for (const button of document.querySelectorAll("#puzzle-values [data-value]")) {
      if (button.dataset.value === value) button.classList.add(reply.right ? "right" : "wrong");
    }
    if (reply.right) await this.solved(null, `Right: ${valueWords(value, puzzle.team)}.`);
    else this.feedback("wrong", `Not this one: ${value}. Try again.`);
  }

  async solved(reply, text) {
    const puzzle = this.current;
    const clean = this.state.tries === 1 && !this.state.hinted && !this.state.shown;
    this.state.solved = true;
    this.progress.record(puzzle.name, clean ? "solved" : "helped");
    this.feedback("right", `${text} ${clean ? "Solved." : "Solved, with help."}`,
      el("button", { id: "puzzle-next-inline", class: "primary", onclick: () => this.next() }, "Next puzzle"),
      el("button", { id: "puzzle-see-solution", onclick: () => $("puzzle-result").scrollIntoView({ block: "start", behavior: "smooth" }) },
        "The solution ↓"));
    this.drawList();
    await this.solution(reply);
  }

  async hint() {
    const puzzle = this.current;
    const state = this.state;
    if (!puzzle) return;
    try {
      const reply = puzzle.generated
        ? await post("/api/puzzles/hint", { toml: puzzle.toml })
        : await get(`/api/puzzles/${puzzle.name}/hint`);
      if (this.state !== state) return;
      this.state.hinted = true;
      this.state.hints = new Set(reply.clicks || []);
      this.feedback("hint", `Hint: ${reply.hint}`);
      this.draw();
    } catch (error) { this.feedback("bad", error.message); }
  }

  // The solution: every optimal first move, the line explained, the file's commentary.
  async solution(fromTry = null) {
    const puzzle = this.current;
    const state = this.state;
    if (!puzzle) return;
    const box = $("puzzle-result");
    if (!this.state.solved) {
      this.state.shown = true;
      this.progress.record(puzzle.name, "seen");
      this.drawList();
    }
    box.hidden = false;
    box.replaceChildren(el("div", { class: "muted", text: "Solving…" }));
    let reply;
    try {
      reply = fromTry && fromTry.root ? fromTry : puzzle.generated
        ? await postWhenFree("/api/puzzles/solution", { toml: puzzle.toml })
        : await postWhenFree(`/api/puzzles/${puzzle.name}/solution`, {});
    } catch (error) {
      if (this.state === state) box.replaceChildren(el("div", { class: "message bad", text: error.message }));
      return;
    }
    if (this.state !== state) return;
    const root = reply.root || {};
    const worth = root.status === "solved" ? `worth ${root.value} to ${seatsText(puzzle.team)}` : "not settled in the time given";
    const moves = reply.solution.map((step) => step.move);
    box.replaceChildren(...[
      el("h2", { text: "Solution" }),
      el("p", { id: "puzzle-best" }, "Best: ", reply.best.map((m) => el("code", { text: m })).flatMap((c, i) => (i ? [", ", c] : [c])),
        ` (the position is ${worth}).`),
      fromTry && fromTry.line && fromTry.right ? explainedLine("Your line, best play on every side", fromTry.line, "puzzle-your-line") : null,
      reply.solution.length ? el("details", { open: !fromTry && reply.solution.length <= 8 },
        el("summary", { text: "The solution line, explained" }), explainedLine("", reply.solution, "puzzle-solution-line")) : null,
      reply.comments && reply.comments.length
        ? el("details", { open: true }, el("summary", { text: "The commentary" }),
          el("div", { class: "comments", id: "puzzle-comments", text: reply.comments.join("\n") }))
        : null,
      el("div", { class: "deal-row" },
        puzzle.game === "omens" ? el("button", { id: "puzzle-solution-board", onclick: () => this.onOpenBoard(puzzle.toml, moves) },
          "Open the solution on the board") : null),
    ].filter(Boolean));
  }

  openOnBoard() {
    const puzzle = this.current;
    if (!puzzle) return;
    if (puzzle.game === "omen") this.onOpenOmen(puzzle.name);
    else this.onOpenBoard(puzzle.toml, []);
  }

  next() {
    const entries = this.entries();
    if (!entries.length) return;
    const start = this.current ? entries.findIndex((e) => e.name === this.current.name) : -1;
    for (let step = 1; step <= entries.length; step++) {
      const entry = entries[(start + step) % entries.length];
      const done = this.progress.get(entry.name);
      if (!done || done.status === "seen") { this.select(entry.name); return; }
    }
    this.select(entries[(start + 1) % entries.length].name);
  }

  async generate() {
    const players = Number($("gen-players").value);
    const seed = Number($("gen-seed").value) || 0;
    $("gen-go").disabled = true;
    $("gen-status").textContent = `Looking for a ${players}-player puzzle in the deals of seed ${seed}…`;
    try {
      const reply = await post("/api/puzzles/generate", { players, seed, seconds: 30 });
      if (!reply.found) {
        $("gen-status").textContent = reply.error;
      } else {
        $("gen-status").textContent = "";
        const name = `generated/${players}p-seed${seed}`;
        this.generated = this.generated.filter((g) => g.name !== name);
        this.generated.unshift({
          name, game: "omens", toml: reply.toml, title: `Generated: ${reply.title}`, question: reply.question,
          players, kind: "move", team: reply.puzzle.team, rating: null, plays: null,
        });
        await this.select(name);
      }
    } catch (error) {
      $("gen-status").textContent = error.message;
    }
    $("gen-go").disabled = false;
  }
}
