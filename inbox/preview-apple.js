// An Apple delivery as the device presents it: a lock-screen or banner card for an alert, or what
// the app's callback receives for the rest, with the presentation notes beside it. The Android and
// web previews (preview-android.js, preview-web.js) are components of the same shape:
// (delivery, device) → element.
import { h, json } from "./dom.js";

/** The text of an `aps.alert` field: a string, or a localization key with its arguments. */
function alertText(alert, name) {
  if (typeof alert === "string") return name === "body" ? alert : undefined;
  if (!alert || typeof alert !== "object") return undefined;
  if (typeof alert[name] === "string") return alert[name];
  const key = alert[`${name}-loc-key`];
  if (typeof key === "string") {
    const args = alert[`${name}-loc-args`];
    return `⟨${key}${Array.isArray(args) && args.length ? `: ${args.join(", ")}` : ""}⟩`;
  }
  return undefined;
}

/** What iOS does with `fcm_options.image`: shown, or why not (docs/inbox.md). */
export function imageDecision(payload, device) {
  const image = payload?.fcm_options?.image;
  if (typeof image !== "string") return { image: null };
  if (payload?.aps?.["mutable-content"] !== 1) return { image: null, note: "No image: iOS shows one only when mutable-content is 1 (the notification service extension never runs)." };
  if (device && device.notificationServiceExtension === false) return { image: null, note: "No image: the app has no notification service extension using Firebase's helper." };
  return { image, note: "The extension downloads the image; the inbox shows its address only (it loads nothing from other sites)." };
}

function hostOf(url) {
  try { return new URL(url).host; } catch { return url.slice(0, 24); }
}

function soundName(sound) {
  if (typeof sound === "string") return sound;
  if (sound && typeof sound === "object") return `${sound.name ?? "default"}${sound.critical ? " (critical)" : ""}`;
  return undefined;
}

/** The preview of one Apple delivery for `device` (may be null: a device since uninstalled). */
export function applePreview(delivery, device) {
  const payload = delivery.payload || {};
  const aps = payload.aps || {};
  const presentation = delivery.presentation || {};
  const appName = delivery.headers?.["apns-topic"] || device?.bundleId || "app";
  const appState = device?.appState || "background";
  const parts = [];
  if (presentation.kind === "alert" && presentation.visible) {
    const { image, note } = imageDecision(payload, device);
    const sound = soundName(aps.sound);
    const meta = [aps.badge !== undefined ? `badge ${aps.badge}` : null, sound ? `sound ${sound}` : null, aps.category ? `category ${aps.category}` : null]
      .filter(Boolean).join(" · ");
    parts.push(h("figure", { class: `phone ${appState === "foreground" ? "banner" : "lock"}`, "aria-label": "Notification preview" },
      h("div", { class: "ios-card" },
        h("div", { class: "app" }, h("span", { class: "icon", "aria-hidden": "true" }), appName, h("span", { class: "when" }, "now")),
        alertText(aps.alert, "title") ? h("div", { class: "title" }, alertText(aps.alert, "title")) : null,
        alertText(aps.alert, "subtitle") ? h("div", { class: "title subtitle" }, alertText(aps.alert, "subtitle")) : null,
        h("div", { class: "body" }, alertText(aps.alert, "body") ?? ""),
        image ? h("div", { class: "image", title: image, "aria-label": `Image ${image}` }, "image", h("br"), hostOf(image)) : null,
        meta ? h("div", { class: "meta" }, meta) : null),
      h("figcaption", { class: "visually-hidden" }, appState === "foreground" ? "Banner while the app is open" : "Lock screen")));
    if (note) parts.push(h("p", { class: "muted" }, note));
  } else {
    parts.push(h("div", { class: "callback" },
      h("p", {}, presentation.visible ? "Shown by the system." : "Nothing is shown."),
      presentation.callback ? h("p", {}, "The app's ", h("code", {}, presentation.callback), " receives:") : h("p", {}, "No app code runs."),
      json(payload, "What the app receives")));
  }
  parts.push(h("ul", { class: "notes", "aria-label": "Presentation notes" },
    h("li", {}, `Kind: ${presentation.kind}; ${presentation.visible ? "visible" : "not visible"} (app ${appState})`),
    h("li", {}, presentation.callback ? ["Callback: ", h("code", {}, presentation.callback)] : "No callback"),
    (presentation.warnings || []).map((warning) => h("li", { class: "warning" }, `⚠ ${warning.message}`))));
  return h("div", { class: "preview" }, parts);
}
