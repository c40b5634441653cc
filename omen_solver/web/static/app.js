// The analysis board's page: tabs, the Omens board with its move list, links, import and
// export, and the solver panel. Plain ES modules, no build step.
import { ApiError, decodeLink, encodeLink, get, post } from "./api.js";
import {
  Chooser, cardName, el, renderChoices, renderTable, renderTrace, state,
} from "./board.js";
import { Editor } from "./editor.js";
import { OmenBoard } from "./omen.js";
import { PositionLine, readText } from "./positionline.js";
import { Puzzles } from "./puzzles.js";
import { SolverPanel } from "./solver.js";
import { MoveTree } from "./tree.js";

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

const MAX_VIEWS = 400;

function typing(event) {
  const target = event.target;
  return target && (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName) || target.isContentEditable);
}

class Board {
  constructor() {
    this.toml = WORKED_EXAMPLE;
    this.tree = new MoveTree();
    this.views = new Map();
    this.view = null;
    this.preview = null;
    this.chooser = new Chooser(null, (text) => this.play(text));
    this.generation = 0;
    this.solver = new SolverPanel(this);
    this.line = new PositionLine("omens", "position", (toml) => this.setPosition(toml), showError);
    $("first").onclick = () => this.go(this.tree.first());
    $("back").onclick = () => this.go(this.tree.back());
    $("forward").onclick = () => this.go(this.tree.forward());
    $("last").onclick = () => this.go(this.tree.last());
    $("promote-line").onclick = () => { this.tree.promote(this.tree.current); this.drawMoves(); this.updateLink(); };
    $("delete-line").onclick = () => { this.tree.remove(this.tree.current); this.show(); };
    $("link").onclick = () => this.copyLink();
    $("export").onclick = () => this.exportToml();
    $("import").onclick = () => openDialog("Import a position file (TOML)", "", (text) => this.setPosition(text));
    window.addEventListener("resize", () => this.draw());
    document.addEventListener("keydown", (event) => this.key(event));
  }

  get moves() { return this.tree.path(); }

  positionKey() { return JSON.stringify([this.toml, this.moves]); }

  async viewFor(moves) {
    const key = JSON.stringify(moves);
    if (this.views.has(key)) return this.views.get(key);
    const view = await post("/api/omens/board", { toml: this.toml, moves });
    if (this.views.size >= MAX_VIEWS) this.views.delete(this.views.keys().next().value);
    this.views.set(key, view);
    const node = this.tree.nodeAt(moves);
    const last = view.history[view.history.length - 1];
    if (node && node.parent && last && last.bout) node.bout = last.bout;
    return view;
  }

  // A new position (and its move tree): the board keeps the old one if the new is refused.
  // True once the new one is shown.
  async setPosition(toml, tree = new MoveTree()) {
    const previous = [this.toml, this.tree, this.views];
    this.toml = toml;
    this.tree = tree;
    this.views = new Map();
    if (await this.show()) return true;
    [this.toml, this.tree, this.views] = previous;
    return false;
  }

  // Draw the current node of the tree.
  async show() {
    const generation = ++this.generation;
    const moves = this.moves;
    let view;
    try {
      view = await this.viewFor(moves);
    } catch (error) {
      if (generation === this.generation) showError(error);
      return false;
    }
    if (generation !== this.generation) return true;
    this.view = view;
    this.preview = null;
    this.chooser = new Chooser(view, (text) => this.play(text));
    showError(null);
    this.draw();
    this.updateLink();
    this.line.show({ toml: this.toml, moves });
    this.solver.positionChanged();
    return true;
  }

  go(node) {
    if (!node) return;
    this.tree.goTo(node);
    this.show();
  }

  async play(text) {
    const from = this.tree.current;
    const known = from.children.find((child) => child.move === text);
    const node = this.tree.play([text]);
    if (!(await this.show())) {
      if (!known) this.tree.remove(node);
      this.tree.goTo(from);
    }
  }

  key(event) {
    if (currentTab() !== "board" || typing(event) || $("dialog").open) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const preview = this.preview;
    const moves = {
      ArrowLeft: () => (preview ? this.stepPreview(-1) : this.go(this.tree.back())),
      ArrowRight: () => (preview ? this.stepPreview(1) : this.go(this.tree.forward())),
      ArrowUp: () => (preview ? null : this.go(this.tree.sibling(-1))),
      ArrowDown: () => (preview ? null : this.go(this.tree.sibling(1))),
      Home: () => (preview ? this.setPreview(0) : this.go(this.tree.first())),
      End: () => (preview ? this.setPreview(preview.line.length) : this.go(this.tree.last())),
      Escape: () => (preview ? this.closePreview() : this.chooser.reset() || this.draw()),
    };
    const action = moves[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  // -- drawing ---------------------------------------------------------------------------------

  draw() {
    if (this.preview && this.preview.view) { this.drawPreview(); return; }
    const view = this.view;
    if (!view) return;
    $("board-title").textContent = view.title || "Omens position";
    $("line-banner").hidden = true;
    $("table").classList.remove("previewing");
    const redraw = () => this.draw();
    const marks = this.solver.marks(view, this.chooser);
    renderTable($("table"), view, this.chooser, redraw, { marks });
    $("choices").hidden = false;
    renderChoices($("choices"), view, this.chooser, redraw, { marks });
    renderTrace($("trace"), view.history);
    this.drawMoves();
    const node = this.tree.current;
    $("back").disabled = !node.parent;
    $("first").disabled = !node.parent;
    $("forward").disabled = !node.children.length;
    $("last").disabled = !node.children.length;
    $("delete-line").hidden = !node.parent;
    $("promote-line").hidden = !node.onSideLine;
  }

  drawMarks() {
    if (this.preview || !this.view) return;
    const redraw = () => this.draw();
    const marks = this.solver.marks(this.view, this.chooser);
    renderTable($("table"), this.view, this.chooser, redraw, { marks });
    renderChoices($("choices"), this.view, this.chooser, redraw, { marks });
  }

  moveChip(node) {
    const current = node === this.tree.current;
    const chip = el("button", {
      class: `mv${node.onSideLine ? " side" : ""}${current ? " current" : ""}`,
      "data-move": node.move, "data-path": JSON.stringify(this.tree.path(node)),
      "aria-current": current ? "true" : undefined,
      title: "go to just after this move",
      onclick: () => this.go(node),
    }, node.move);
    if (!node.bout) return [chip];
    const bout = node.bout;
    const won = bout.winner ? `seat ${bout.winner} won bout ${bout.number}` : `bout ${bout.number}: no winner`;
    return [chip, el("span", { class: "bout-end", title: won, text: "‖" })];
  }

  // The moves as lichess shows them: the main line, and each side line indented below the
  // move it replaces, in parentheses.
  drawMoves() {
    const list = $("move-list");
    list.replaceChildren();
    const fileMoves = this.view ? this.view.history.filter((h) => h.from_file) : [];
    const head = el("div", { class: "line" },
      el("button", {
        class: `mv start${this.tree.current === this.tree.root ? " current" : ""}`, "data-path": "[]",
        title: "the position as given", onclick: () => this.go(this.tree.root),
      }, "start"),
      fileMoves.map((h) => el("span", { class: "mv file", "data-move": h.move, title: "a move of the position file" }, h.move)));
    list.append(head);
    const line = (container, node, row) => {
      let at = node;
      let current = row;
      while (at.children.length) {
        const [main, ...sides] = at.children;
        current.append(...this.moveChip(main));
        if (sides.length) {
          for (const side of sides) {
            const block = el("div", { class: "variation" });
            const sideRow = el("div", { class: "line" }, ...this.moveChip(side));
            block.append(sideRow);
            line(block, side, sideRow);
            container.append(block);
          }
          current = el("div", { class: "line" });
          container.append(current);
        }
        at = main;
      }
    };
    const first = el("div", { class: "line" });
    list.append(first);
    line(list, this.tree.root, first);
    // the move shown stays in sight within the list (never by scrolling the page)
    const chip = list.querySelector(".mv.current");
    if (chip) {
      const top = chip.offsetTop - list.offsetTop;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (top + chip.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = top + chip.offsetHeight - list.clientHeight;
      }
    }
  }

  // -- a line shown, not played ------------------------------------------------------------

  // Show ``line`` (moves from the current position) up to ``index`` on the board without
  // playing it: the game, its move tree and its analysis stay as they are.
  async showLine(line, index, label, estimated) {
    if (!line.length) return;
    this.preview = { base: this.tree.current, line, index: 0, label, estimated, view: null };
    await this.setPreview(index);
    // on a phone the solver panel is below the table: bring the line shown into sight
    const top = $("line-banner").getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight - 80) $("line-banner").scrollIntoView({ block: "start" });
  }

  async setPreview(index) {
    const preview = this.preview;
    if (!preview) return;
    preview.index = Math.max(0, Math.min(preview.line.length, index));
    const moves = [...this.tree.path(preview.base), ...preview.line.slice(0, preview.index)];
    try {
      const view = await this.viewFor(moves);
      if (this.preview !== preview) return;
      preview.view = view;
      this.drawPreview();
    } catch (error) { showError(error); }
  }

  stepPreview(step) { if (this.preview) this.setPreview(this.preview.index + step); }

  closePreview() {
    this.preview = null;
    this.draw();
  }

  playPreview() {
    const preview = this.preview;
    if (!preview) return;
    const moves = preview.line.slice(0, Math.max(1, preview.index));
    this.preview = null;
    this.tree.play(moves, preview.base);
    this.show();
  }

  drawPreview() {
    const preview = this.preview;
    const view = preview.view;
    const banner = $("line-banner");
    banner.hidden = false;
    banner.classList.toggle("estimated", Boolean(preview.estimated));
    banner.replaceChildren(
      el("div", { class: "line-head" },
        el("strong", { text: preview.estimated ? "An expected line (an estimate, not proven)" : "Showing a line" }),
        el("span", { class: "muted", text: ` after ${preview.label}: move ${preview.index} of ${preview.line.length}. The game is not changed.` })),
      el("div", { class: "pv" }, preview.line.map((move, i) => el("button", {
        class: "pv-move" + (i + 1 === preview.index ? " current" : ""), "data-index": i + 1,
        onclick: () => this.setPreview(i + 1),
      }, move))),
      el("div", { class: "line-buttons" },
        el("button", { id: "line-back", title: "one move back (←)", disabled: preview.index === 0, onclick: () => this.stepPreview(-1) }, "◀"),
        el("button", { id: "line-forward", title: "one move on (→)", disabled: preview.index >= preview.line.length, onclick: () => this.stepPreview(1) }, "▶"),
        el("button", { id: "line-play", class: "primary", title: "add these moves to the move list (a side line where they differ)", onclick: () => this.playPreview() },
          preview.index > 1 ? `Play these ${preview.index} moves` : "Play this move"),
        el("button", { id: "line-close", title: "back to the game (Esc)", onclick: () => this.closePreview() }, "Close")));
    renderTable($("table"), view, null, () => {}, { readOnly: true });
    $("table").classList.add("previewing");
    $("choices").hidden = true;
    const base = this.tree.path(preview.base).length + (this.view ? this.view.history.filter((h) => h.from_file).length : 0);
    renderTrace($("trace"), view.history);
    for (const block of $("trace").querySelectorAll(".step")) {
      if (Number(block.dataset.index) >= base) block.classList.add("shown-line");
    }
  }

  // -- links, export --------------------------------------------------------------------------

  linkPayload() {
    const payload = { t: this.toml, m: this.moves };
    const tree = this.tree.toJSON();
    if (JSON.stringify(tree) !== JSON.stringify(linearTree(payload.m))) payload.v = tree;
    return payload;
  }

  async link() {
    return `${location.origin}${location.pathname}#omens=${await encodeLink(this.linkPayload())}`;
  }

  async updateLink() {
    const code = await encodeLink(this.linkPayload());
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

function linearTree(moves) {
  const build = (i) => (i < moves.length ? [[moves[i], ...build(i + 1)]] : []);
  return build(0);
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
  const playOnBoard = async (toml, moves = []) => {
    showTab("board");
    await board.setPosition(toml, MoveTree.fromJSON([], moves));
    board.updateLink();
  };
  const editor = new Editor(options, playOnBoard);
  const puzzles = new Puzzles(playOnBoard);
  const omen = new OmenBoard();
  puzzles.onOpenOmen = async (name) => { showTab("omen"); await omen.open(name); };
  window.omenBoard = { board, editor, puzzles, omen, cardName };
  $("edit-this").onclick = () => { editor.load(board.view.position); showTab("editor"); };
  for (const button of document.querySelectorAll(".tabs button")) {
    button.onclick = async () => {
      const leaving = currentTab();
      showTab(button.dataset.tab);
      // the board's searches stop while it is out of sight (they share the server's slots
      // with the puzzles' and the Omen solver's), and start again, or come from the cache,
      // when it is back
      if (leaving === "board" && button.dataset.tab !== "board") board.solver.stop();
      if (leaving !== "board" && button.dataset.tab === "board") board.solver.positionChanged();
      if (button.dataset.tab === "puzzles") await puzzles.open();
      if (button.dataset.tab === "omen") await omen.open();
      if (button.dataset.tab === "board") board.updateLink();
    };
  }
  const hash = location.hash.slice(1);
  const [kind, code] = [hash.split("=")[0], hash.slice(hash.indexOf("=") + 1)];
  if ((kind === "omens-text" || kind === "omen-text") && code) {
    await board.setPosition(WORKED_EXAMPLE);
    const game = kind.split("-")[0];
    try {
      const { toml } = await readText(game, decodeURIComponent(code));
      if (game === "omens") await board.setPosition(toml);
      else { showTab("omen"); await omen.open(null, toml); }
    } catch (error) {
      showError(`this link's position text cannot be read: ${error.message}`);
    }
  } else if (kind === "omens" && code) {
    try {
      const payload = await decodeLink(code);
      await board.setPosition(payload.t, MoveTree.fromJSON(payload.v || [], payload.m || []));
      if (!board.view) await board.setPosition(WORKED_EXAMPLE);
    } catch (error) {
      showError(`this link cannot be read: ${error.message}`);
      await board.setPosition(WORKED_EXAMPLE);
    }
  } else {
    await board.setPosition(WORKED_EXAMPLE);
    if (kind === "puzzle" && code) { showTab("puzzles"); await puzzles.open(code); }
    if (kind === "omen") { showTab("omen"); await omen.open(); }
  }
  document.body.dataset.ready = "1";
}

start().catch((error) => showError(error));
