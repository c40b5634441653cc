// Puzzle mode: the bundled Omens puzzles and generated ones. The player picks a move on the
// board; the server says right or wrong and why (the refutation line), then shows every
// optimal move and the commented solution.
import { get, post } from "./api.js";
import { Chooser, el, renderChoices, renderSteps, renderTable } from "./board.js";

const $ = (id) => document.getElementById(id);

function explainedLine(title, line) {
  return el("div", { class: "line" }, el("h3", { text: title }),
    line.map((entry, i) => el("div", { class: "trace" },
      el("div", { class: "move" }, `${i + 1}. `, el("code", { text: entry.move })),
      renderSteps(entry.steps))));
}

export class Puzzles {
  constructor(onOpenBoard) {
    this.onOpenBoard = onOpenBoard;
    this.list = null;
    this.current = null;
    this.generated = [];
    $("gen-go").onclick = () => this.generate();
  }

  async open(name) {
    if (!this.list) {
      this.list = await get("/api/puzzles?game=omens");
      this.drawList();
    }
    if (name) await this.select(name);
    else if (!this.current && this.list.length) await this.select(this.list[0].name);
  }

  drawList() {
    const list = $("puzzle-list");
    list.replaceChildren();
    for (const entry of [...this.generated, ...this.list]) {
      list.append(el("li", {
        class: this.current && this.current.name === entry.name ? "current" : "", "data-puzzle": entry.name,
        onclick: () => this.select(entry.name),
      }, el("div", { text: `${entry.title} · ${entry.players} players` }),
      el("div", { class: "q", text: entry.question || "" })));
    }
  }

  async select(name) {
    const generated = this.generated.find((g) => g.name === name);
    const puzzle = generated || await get(`/api/puzzles/${name}`);
    this.current = { ...puzzle, name };
    const view = await post("/api/omens/board", { toml: puzzle.toml });
    this.view = view;
    this.answered = false;
    $("puzzle-title").textContent = puzzle.title;
    $("puzzle-question").textContent = puzzle.question || "";
    $("puzzle-result").hidden = true;
    this.chooser = new Chooser(view, (text) => this.attempt(text));
    this.draw();
    this.drawList();
    history.replaceState(null, "", `#puzzle=${name}`);
  }

  draw() {
    const redraw = () => this.draw();
    renderTable($("puzzle-table"), this.view, this.chooser, redraw);
    renderChoices($("puzzle-choices"), this.view, this.chooser, redraw, { promptId: "puzzle-prompt", listId: "puzzle-actions" });
  }

  async attempt(move) {
    const box = $("puzzle-result");
    box.hidden = false;
    box.replaceChildren(el("div", { class: "muted", text: `Checking ${move}…` }));
    try {
      const generated = this.generated.find((g) => g.name === this.current.name);
      const reply = generated
        ? await post("/api/puzzles/try", { toml: generated.toml, move })
        : await post(`/api/puzzles/${this.current.name}/try`, { move });
      this.showResult(reply);
    } catch (error) {
      box.replaceChildren(el("div", { class: "message bad", text: error.message }));
    }
    this.draw();
  }

  showResult(reply) {
    const box = $("puzzle-result");
    const verdict = reply.right === true ? "Right" : reply.right === false ? "Wrong" : "Not settled";
    const why = reply.right === true
      ? `${reply.move} keeps the best result (${reply.verdict}).`
      : reply.right === false
        ? `${reply.move} is ${reply.verdict === "lost" ? "lost" : "worse"} (value ${reply.value}): the other side answers as below.`
        : "The solver ran out of time on this move.";
    box.replaceChildren(
      el("div", { class: `verdict-line ${reply.right ? "right" : "wrong"}`, id: "puzzle-verdict", text: `${verdict}: ${reply.move}` }),
      el("p", { text: why }),
      explainedLine(reply.right ? "Your line, best play on both sides" : "The refutation", reply.line),
      el("h3", { text: "Every optimal move" }),
      el("p", { id: "puzzle-best" }, reply.best.map((m) => el("code", { text: m + " " }))),
      reply.comments && reply.comments.length
        ? el("div", {}, el("h3", { text: "The solution, commented" }), el("div", { class: "comments", id: "puzzle-comments", text: reply.comments.join("\n") }))
        : null,
      reply.solution && reply.solution.length ? explainedLine("The solution line", reply.solution) : null,
      el("div", { class: "deal-row" },
        el("button", { id: "puzzle-again", onclick: () => { box.hidden = true; } }, "Try another move"),
        el("button", { onclick: () => this.onOpenBoard(this.current.toml) }, "Open on the board")));
    box.scrollIntoView({ block: "nearest" });
  }

  async generate() {
    const players = Number($("gen-players").value);
    const seed = Number($("gen-seed").value) || 0;
    $("gen-go").disabled = true;
    $("puzzle-question").textContent = `Looking for a ${players}-player puzzle in the deals of seed ${seed}…`;
    try {
      const reply = await post("/api/puzzles/generate", { players, seed, seconds: 30 });
      if (!reply.found) {
        $("puzzle-question").textContent = reply.error;
      } else {
        const name = `generated/${players}p-seed${seed}`;
        this.generated = this.generated.filter((g) => g.name !== name);
        this.generated.unshift({ name, toml: reply.toml, title: `Generated: ${reply.title}`, question: reply.question, players });
        await this.select(name);
      }
    } catch (error) {
      $("puzzle-question").textContent = error.message;
    }
    $("gen-go").disabled = false;
  }
}
