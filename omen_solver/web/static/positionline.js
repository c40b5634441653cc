// A position's one-line text under a board (docs/position-text.md): the text of the position
// shown (with its moves played), read back when one is pasted or typed, and a link holding it.
import { post } from "./api.js";

const $ = (id) => document.getElementById(id);

// The link that opens ``game``'s board on the position ``text`` (``#omens-text=...``).
export function textLink(game, text) {
  return `${location.origin}${location.pathname}#${game}-text=${encodeURIComponent(text)}`;
}

// The position file of a text, as the server reads it: ``{text, toml}`` (a 400 names the key).
export function readText(game, text) {
  return post(`/api/${game}/text`, { text: text.trim() });
}

export class PositionLine {
  // ``prefix``: the ids' prefix (``position`` for the Omens board, ``omen-text`` for Omen);
  // ``onLoad(toml)``: open a position file on the board (true once shown); ``onError``: say why
  // a text was refused.
  constructor(game, prefix, onLoad, onError) {
    this.game = game;
    this.input = $(`${prefix}-text`);
    this.linkAnchor = $(`${prefix}-link`);
    this.status = $(`${prefix}-status`);
    this.onLoad = onLoad;
    this.onError = onError;
    this.text = "";
    this.generation = 0;
    $(`${prefix}-load`).onclick = () => this.load();
    $(`${prefix}-copy`).onclick = () => this.copy(this.text, "text copied");
    this.linkAnchor.onclick = (event) => {
      event.preventDefault();
      this.copy(this.linkAnchor.href, "link copied");
    };
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") { event.preventDefault(); this.load(); }
      if (event.key === "Escape") { this.input.value = this.text; this.input.blur(); }
    });
    // a text pasted over the whole box is loaded at once
    this.input.addEventListener("paste", (event) => {
      const pasted = event.clipboardData ? event.clipboardData.getData("text") : "";
      if (!pasted.trim()) return;
      event.preventDefault();
      this.input.value = pasted.trim();
      this.load();
    });
  }

  // The text of the position shown (``body``: its file and moves), asked of the server.
  async show(body) {
    const generation = ++this.generation;
    try {
      const { text } = await post(`/api/${this.game}/text`, body);
      if (generation !== this.generation) return;
      this.set(text);
    } catch (error) {
      if (generation === this.generation) this.set("");
    }
  }

  set(text) {
    this.text = text;
    if (document.activeElement !== this.input) this.input.value = text;
    this.linkAnchor.href = text ? textLink(this.game, text) : "#";
    this.linkAnchor.toggleAttribute("aria-disabled", !text);
    this.say("");
  }

  // Load the text in the box: the board keeps its position if the text is refused.
  async load() {
    const written = this.input.value.trim();
    if (!written) return;
    try {
      const { toml, text } = await readText(this.game, written);
      this.input.blur();
      if (await this.onLoad(toml)) this.set(text);
    } catch (error) {
      this.onError(error);
      this.say("not loaded: the text was refused (the message above says why)");
    }
  }

  async copy(what, done) {
    if (!what || what.endsWith("#")) return;
    try {
      await navigator.clipboard.writeText(what);
      this.say(done);
    } catch (problem) {
      const { openDialog } = await import("./app.js");
      openDialog(done.startsWith("link") ? "The link to this position" : "This position's text", what, null);
    }
  }

  say(message) { this.status.textContent = message; }
}
