// A tiny render helper: h(tag, attributes, ...children) builds DOM elements. Attributes starting with "on" become
// event listeners; `class`, `for`, aria-* and data-* are set as attributes; children may be strings, numbers,
// elements, arrays or null (skipped). No innerHTML anywhere, so text from the node is never parsed as markup.

export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      element.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (value === true) {
      element.setAttribute(key, '');
    } else {
      element.setAttribute(key, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else if (typeof child === 'string' || typeof child === 'number') element.appendChild(document.createTextNode(String(child)));
    else element.appendChild(child);
  }
}

/** Replaces the children of `target` with `children`. The control that had focus keeps it when the new children
 * hold one with the same id (a live update redraws the card under a finger), without scrolling to it. */
export function mount(target, ...children) {
  const active = document.activeElement;
  const id = active && active !== target && target.contains(active) ? active.id : '';
  target.replaceChildren();
  append(target, children);
  if (id) document.getElementById(id)?.focus({ preventScroll: true });
}
