// An Android delivery as the device presents it: a notification-shade card when the SDK shows it,
// or the RemoteMessage that onMessageReceived gets, with the presentation notes beside it
// (docs/android.md). Same shape as the Apple preview: (delivery, device) → element.
import { h, json } from "./dom.js";

/** A title or body, or its localization key with the arguments, as the SDK would look it up. */
function text(notification, name) {
  if (typeof notification[name] === "string") return notification[name];
  const key = notification[`${name}LocalizationKey`];
  if (typeof key !== "string") return undefined;
  const args = notification[`${name}LocalizationArgs`];
  return `⟨${key}${Array.isArray(args) && args.length ? `: ${args.join(", ")}` : ""}⟩`;
}

function hostOf(url) {
  try { return new URL(url).host; } catch { return url.slice(0, 24); }
}

/** The small icon, in the notification's colour when it is one the SDK accepts (set through the
 * CSSOM: the page's policy refuses inline style attributes). */
function appIcon(color) {
  const icon = h("span", { class: "icon", "aria-hidden": "true" });
  if (typeof color === "string" && /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(color)) icon.style.background = color.length === 9 ? `#${color.slice(3)}` : color;
  return icon;
}

/** The preview of one Android delivery for `device` (may be null: a device since uninstalled). */
export function androidPreview(delivery, device) {
  const message = delivery.remoteMessage || {};
  const presentation = delivery.presentation || {};
  const notification = message.notification || {};
  const appState = device?.appState || "background";
  const appName = device?.packageName || device?.bundleId || "app";
  const parts = [];
  if (presentation.shown) {
    const meta = [
      presentation.channel ? `channel ${presentation.channel}` : null,
      notification.tag ? `tag ${notification.tag}` : null,
      notification.notificationCount !== undefined ? `count ${notification.notificationCount}` : null,
      notification.sound ? `sound ${notification.sound}` : null,
    ].filter(Boolean).join(" · ");
    parts.push(h("figure", { class: "phone android", "aria-label": "Notification preview" },
      h("div", { class: "ios-card android-card" },
        h("div", { class: "app" }, appIcon(notification.color), appName, h("span", { class: "when" }, "now")),
        text(notification, "title") ? h("div", { class: "title" }, text(notification, "title")) : null,
        h("div", { class: "body" }, text(notification, "body") ?? ""),
        notification.imageUrl ? h("div", { class: "image", title: notification.imageUrl, "aria-label": `Image ${notification.imageUrl}` }, "image", h("br"), hostOf(notification.imageUrl)) : null,
        meta ? h("div", { class: "meta" }, meta) : null),
      h("figcaption", { class: "visually-hidden" }, "Notification shade")));
  } else {
    parts.push(h("div", { class: "callback" },
      h("p", {}, "Nothing is shown."),
      presentation.callback ? h("p", {}, "The app's ", h("code", {}, presentation.callback), " receives this RemoteMessage:") : h("p", {}, "No app code runs."),
      json(message, "What the app receives")));
  }
  parts.push(h("ul", { class: "notes", "aria-label": "Presentation notes" },
    h("li", {}, `${presentation.shown ? "Shown by the SDK" : "Not shown"} (app ${appState})`),
    h("li", {}, presentation.callback ? ["Callback: ", h("code", {}, presentation.callback)] : "No callback"),
    presentation.tapOpens ? h("li", {}, `A tap opens ${presentation.tapOpens} with extras ${(presentation.tapExtras || []).join(", ")}`) : null,
    (presentation.warnings || []).map((warning) => h("li", { class: "warning" }, `⚠ ${warning.message}`))));
  return h("div", { class: "preview" }, parts);
}
