// A device: what it is, what can be done to it, and its deliveries, newest first, live.
import { api, path } from "./api.js";
import { h, fill, field, select, keyValues, when, toast, confirmButton } from "./dom.js";
import { onEvent, throttled } from "./live.js";
import { deliveryCard } from "./delivery.js";

// Streams opened here stay open while the tab lives, whichever page it shows: key "project token".
const openStreams = new Map();

export async function deviceView(main, [project, token]) {
  const base = path`/projects/${project}/devices/${token}`;
  const key = `${project} ${token}`;
  const facts = h("div");
  const actions = h("div", { class: "actions" });
  const activity = h("ol", { class: "activity", "aria-label": "Activity", reversed: true });
  const deliveries = h("div", { "aria-live": "polite" });
  const pager = h("p", { class: "pager" });
  let device = null;
  // Set once the device is uninstalled here: its reads would now fail, so none is made.
  let gone = false;

  function note(text) {
    activity.prepend(h("li", {}, `${new Date().toLocaleTimeString()} — ${text}`));
    while (activity.children.length > 50) activity.lastElementChild.remove();
  }

  function streamEvent(event) {
    const data = JSON.parse(event.data);
    if (data.type === "messagesDeleted") note(`stream: messages deleted (${data.count}, ${data.reason})`);
    else note(`stream: notification ${data.id}`);
  }

  function toggleStream() {
    const open = openStreams.get(key);
    if (open) {
      open.close();
      openStreams.delete(key);
      note("stream closed");
    } else {
      const source = new EventSource(api.url(`${base}:stream`));
      for (const type of ["notification", "messagesDeleted"]) source.addEventListener(type, streamEvent);
      source.onerror = () => {
        // The stream ended (the device was uninstalled, or the emulator stopped): no reconnecting.
        source.close();
        if (openStreams.get(key) === source) openStreams.delete(key);
        note("stream ended");
        drawActions();
      };
      openStreams.set(key, source);
      note("stream opened");
    }
    drawActions();
  }

  async function patch(body, label) {
    try {
      device = await api.patch(base, body);
      drawFacts();
      drawActions();
      note(label);
      // The previews follow the device's settings.
      await loadDeliveries();
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async function connectOnce() {
    try {
      const result = await api.post(`${base}:connect`);
      const deleted = result.events.filter((event) => event.type === "messagesDeleted");
      const received = result.events.length - deleted.length;
      note(`connected: ${received} notification(s) received`);
      for (const event of deleted) note(`messages deleted: ${event.count} (${event.reason})`);
    } catch (error) {
      toast(`Connect: ${error.message}`, "error");
    }
  }

  async function uninstall() {
    gone = true;
    try {
      await api.delete(base);
      openStreams.get(key)?.close();
      openStreams.delete(key);
      toast("Uninstalled: later sends to its token are UNREGISTERED");
      location.hash = `#/p/${encodeURIComponent(project)}`;
    } catch (error) {
      gone = false;
      toast(`Uninstall: ${error.message}`, "error");
    }
  }

  function drawFacts() {
    fill(facts, keyValues([
      ["FCM token", h("span", { class: "mono", id: "device-token" }, device.token)],
      ["Platform", device.platform],
      ["Bundle id", device.bundleId],
      ["APNs token", device.apnsToken ? h("span", { class: "mono" }, device.apnsToken) : "none"],
      ["App state", device.appState],
      ["Connected", device.connected ? "yes (a stream is open)" : "no"],
      ["Pending", String(device.pendingCount)],
      ["Topics", device.topics.join(", ") || "none"],
      ["Registered", when(device.registeredAt)],
      ["Last connected", when(device.lastConnectedAt)],
    ]));
  }

  function drawActions() {
    const state = select("appState", ["foreground", "background", "notRunning"], device.appState);
    state.addEventListener("change", () => patch({ appState: state.value }, `app state: ${state.value}`));
    const extension = h("input", { type: "checkbox", name: "notificationServiceExtension", checked: device.notificationServiceExtension });
    extension.addEventListener("change", () => patch({ notificationServiceExtension: extension.checked }, `notification service extension: ${extension.checked ? "on" : "off"}`));
    fill(actions,
      field("App state", state),
      field("Notification service extension", extension),
      h("button", { type: "button", onclick: connectOnce }, "Connect once"),
      h("button", { type: "button", onclick: toggleStream, "aria-pressed": openStreams.has(key) ? "true" : "false" }, openStreams.has(key) ? "Close stream" : "Open stream"),
      confirmButton("Uninstall", uninstall));
  }

  let pageToken = "";
  const newer = [];
  async function loadDeliveries() {
    if (gone) return;
    const page = await api.get(path`/projects/${project}/messages`, { token, pageSize: 20, pageToken });
    const cards = [];
    for (const message of page.messages) {
      for (const delivery of message.deliveries) if (delivery.token === token) cards.push(deliveryCard(delivery, device, project));
    }
    fill(deliveries, cards.length ? cards : h("p", { class: "muted" }, "No deliveries yet: send to this device's token."));
    fill(pager,
      newer.length ? h("button", { type: "button", onclick: () => { pageToken = newer.pop(); loadDeliveries(); } }, "Newer") : null,
      page.nextPageToken ? h("button", { type: "button", onclick: () => { newer.push(pageToken); pageToken = page.nextPageToken; loadDeliveries(); } }, "Older") : null);
  }

  async function loadDevice() {
    if (gone) return false;
    try {
      device = await api.get(base);
    } catch (error) {
      if (error.status !== 404) throw error;
      fill(facts, h("p", { class: "warning" }, `This device is gone: ${error.message}`));
      fill(actions);
      return false;
    }
    drawFacts();
    drawActions();
    return true;
  }

  fill(main,
    h("h1", {}, "Device"),
    h("section", {}, facts, actions),
    h("div", { class: "main-and-side" },
      h("section", {}, h("h2", {}, "Deliveries"), deliveries, pager),
      h("section", {}, h("h2", {}, "Activity"), activity)));
  if (await loadDevice()) await loadDeliveries();

  const refreshDevice = throttled(loadDevice, 250);
  const refreshDeliveries = throttled(loadDeliveries, 250);
  return onEvent((event) => {
    if (event.type === "state") { refreshDevice(); refreshDeliveries(); return; }
    if (event.project !== project) return;
    if (event.type === "message") { refreshDevice(); if (!pageToken) refreshDeliveries(); }
    if (event.token !== token) return;
    if (event.type === "device" && event.change === "uninstalled") {
      gone = true;
      fill(facts, h("p", { class: "warning" }, "This device was uninstalled: sends to its token are now UNREGISTERED."));
      fill(actions);
      note("device uninstalled");
      return;
    }
    if (event.type === "device") { note(`device ${event.change}`); refreshDevice(); }
    if (event.type === "delivery") { refreshDevice(); refreshDeliveries(); }
    if (event.type === "messagesDeleted") { note(`messages deleted: ${event.count} (${event.reason})`); refreshDevice(); refreshDeliveries(); }
  });
}
