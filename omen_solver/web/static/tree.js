// The move tree of the analysis board: every move played from the position, side lines kept.
// A node's first child is its main line; the others are side lines, in the order they were
// played. Going back and forward never loses a line; playing a move that is already there
// goes to it.

export class MoveNode {
  constructor(move, parent) {
    this.move = move;
    this.parent = parent;
    this.children = [];
    this.chosen = 0; // the child last visited: "forward" follows it
  }

  get depth() {
    let depth = 0;
    for (let node = this; node.parent; node = node.parent) depth += 1;
    return depth;
  }

  // Whether this node lies on a side line (somewhere between it and the root).
  get onSideLine() {
    for (let node = this; node.parent; node = node.parent) {
      if (node.parent.children[0] !== node) return true;
    }
    return false;
  }
}

export class MoveTree {
  constructor() {
    this.root = new MoveNode(null, null);
    this.current = this.root;
  }

  path(node = this.current) {
    const moves = [];
    for (let at = node; at.parent; at = at.parent) moves.push(at.move);
    return moves.reverse();
  }

  // The node at the end of ``moves`` from the root, or null.
  nodeAt(moves) {
    let node = this.root;
    for (const move of moves) {
      node = node.children.find((child) => child.move === move);
      if (!node) return null;
    }
    return node;
  }

  // The child of ``node`` for ``move``, made if it is new (a side line when there is one).
  childFor(node, move) {
    let child = node.children.find((c) => c.move === move);
    if (!child) {
      child = new MoveNode(move, node);
      node.children.push(child);
    }
    node.chosen = node.children.indexOf(child);
    return child;
  }

  // Play ``moves`` from ``node`` (default: the current node) and go to the last one.
  play(moves, node = this.current) {
    let at = node;
    for (const move of moves) at = this.childFor(at, move);
    this.goTo(at);
    return at;
  }

  goTo(node) {
    // remember the way down, so that "forward" after "back" comes the same way again
    for (let at = node; at.parent; at = at.parent) at.parent.chosen = at.parent.children.indexOf(at);
    this.current = node;
  }

  back() { return this.current.parent; }

  forward() {
    const node = this.current;
    return node.children[node.chosen] || node.children[0] || null;
  }

  first() { return this.root; }

  last() {
    let node = this.current;
    while (node.children.length) node = node.children[node.chosen] || node.children[0];
    return node;
  }

  // The sibling before (-1) or after (+1) the current node: the other lines from its parent.
  sibling(step) {
    const node = this.current;
    if (!node.parent) return null;
    const siblings = node.parent.children;
    const index = siblings.indexOf(node) + step;
    return index >= 0 && index < siblings.length ? siblings[index] : null;
  }

  // Remove ``node`` and everything after it; the current node moves up out of it.
  remove(node) {
    if (!node.parent) return;
    for (let at = this.current; at; at = at.parent) {
      if (at === node) { this.current = node.parent; break; }
    }
    const siblings = node.parent.children;
    siblings.splice(siblings.indexOf(node), 1);
    node.parent.chosen = 0;
  }

  // Make the side line through ``node`` the main line where it branches off.
  promote(node) {
    let at = node;
    while (at.parent && at.parent.children[0] === at) at = at.parent;
    if (!at.parent) return;
    const siblings = at.parent.children;
    siblings.splice(siblings.indexOf(at), 1);
    siblings.unshift(at);
    at.parent.chosen = 0;
  }

  // Compact form for links: each node as [move, children...].
  toJSON() {
    const write = (node) => node.children.map((child) => [child.move, ...write(child)]);
    return write(this.root);
  }

  static fromJSON(data, current = []) {
    const tree = new MoveTree();
    const read = (node, children) => {
      for (const entry of children || []) {
        if (!Array.isArray(entry) || typeof entry[0] !== "string") continue;
        const child = new MoveNode(entry[0], node);
        node.children.push(child);
        read(child, entry.slice(1));
      }
    };
    read(tree.root, data);
    const at = tree.nodeAt(current);
    tree.goTo(at || tree.play(current, tree.root));
    return tree;
  }
}
