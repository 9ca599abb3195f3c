/// <reference lib="dom" />

/**
 * Creates an element with an optional class and text. Text is set with `textContent`, never parsed
 * as HTML: this (and `appendChild`) is how every string from the session reaches the page.
 */
export function el(tag: string, className?: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Appends children (strings become text nodes) and returns the parent. */
export function add(parent: HTMLElement, ...children: Array<Node | string | null | undefined>): HTMLElement {
  for (const child of children) {
    if (child === null || child === undefined) continue;
    parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return parent;
}

/** `1,234`. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** A byte count as `512 B`, `1.2 KB`, `3.4 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The first 8 characters of an id (pi's ids are 8 hex digits already). */
export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}
