// Building the page: elements from plain data, never from HTML strings (no markup injection from
// a payload's text).

/** An element: h("a", {href: "#/"}, "text", child, [more]). Attributes starting with "on" are listeners. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces what `element` holds with `children`. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** A labelled form field. */
export function field(label, control) {
  return h("label", { class: control.type === "checkbox" ? "field check" : "field" }, control.type === "checkbox" ? [control, label] : [label, control]);
}

/** A <select> of `options` (strings), with `selected` chosen. */
export function select(name, options, selected) {
  return h("select", { name }, options.map((option) => h("option", { value: option, selected: option === selected }, option || "any")));
}

/** JSON pretty-printed in a <pre>. */
export function json(value, label) {
  return h("pre", { class: "json", tabindex: "0", "aria-label": label || "JSON" }, JSON.stringify(value, null, 2));
}

/** A delivery state as a coloured badge. */
export function stateBadge(state) {
  return h("span", { class: `badge state-${state}` }, state);
}

/** A term/description list from [term, value] pairs; pairs with an undefined value are left out. */
export function keyValues(pairs) {
  return h("dl", { class: "kv" }, pairs.filter(([, value]) => value !== undefined).map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]));
}

/** An RFC 3339 instant as the reader's local date and time. */
export function when(text) {
  if (!text) return "never";
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toLocaleString();
}

/** A short message in the corner for a few seconds. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const item = h("div", { class: `toast ${kind}` }, text);
  box.append(item);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => item.remove(), kind === "error" ? 8000 : 4000);
}

/**
 * A button that asks once more before it acts: the first press turns it into "Confirm …", the
 * second acts. Keyboard and pointer alike, and no dialog to dismiss.
 */
export function confirmButton(label, action, attributes = {}) {
  const button = h("button", { type: "button", class: "danger", ...attributes }, label);
  let armed = false;
  button.addEventListener("click", async () => {
    if (!armed) {
      armed = true;
      button.textContent = `Confirm: ${label.toLowerCase()}`;
      setTimeout(() => { armed = false; button.textContent = label; }, 5000);
      return;
    }
    armed = false;
    button.textContent = label;
    await action();
  });
  return button;
}
