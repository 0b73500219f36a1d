// A device: what it is, what can be done to it, and its deliveries, newest first, live.
import { api, path } from "./api.js";
import { h, fill, field, select, keyValues, when, toast, confirmButton } from "./dom.js";
import { onEvent, throttled } from "./live.js";
import { deliveryCard } from "./delivery.js";

/** The app id and settings a device of its platform has (docs/android.md, docs/web.md). */
function appFacts(device) {
  switch (device.platform) {
    case "android":
      return [["Package name", device.packageName], ["Channels", device.channels ? device.channels.join(", ") || "none" : "every channel"]];
    case "web":
      return [["Origin", device.origin]];
    default:
      return [["Bundle id", device.bundleId], ["APNs token", device.apnsToken ? h("span", { class: "mono" }, device.apnsToken) : "none"]];
  }
}

// Device streams opened here stay open while the tab lives, whichever page it shows, by
// "project token": the EventSource and the pages listening to it (one at most, the open one).
const openStreams = new Map();

function openStream(key, url) {
  const stream = { source: new EventSource(url), listeners: new Set() };
  const tell = (text) => { for (const listener of stream.listeners) listener(text); };
  const received = (event) => {
    const data = JSON.parse(event.data);
    tell(data.type === "messagesDeleted" ? `stream: messages deleted (${data.count}, ${data.reason})` : `stream: notification ${data.id}`);
  };
  for (const type of ["notification", "messagesDeleted"]) stream.source.addEventListener(type, received);
  stream.source.onerror = () => {
    // The stream ended (the device was uninstalled, or the emulator stopped): no reconnecting.
    stream.source.close();
    if (openStreams.get(key) === stream) openStreams.delete(key);
    tell("stream ended");
  };
  openStreams.set(key, stream);
  return stream;
}

function closeStream(key) {
  openStreams.get(key)?.source.close();
  openStreams.delete(key);
}

export async function deviceView(main, [project, token]) {
  const base = path`/projects/${project}/devices/${token}`;
  const key = `${project} ${token}`;
  const facts = h("div");
  const actions = h("div", { class: "actions" });
  const activity = h("ol", { class: "activity", "aria-label": "Activity", reversed: true });
  const deliveries = h("div");
  const pager = h("p", { class: "pager" });
  let device = null;
  // Set once the device is uninstalled: its reads would now fail, so none is made.
  let gone = false;

  function note(text) {
    activity.prepend(h("li", {}, `${new Date().toLocaleTimeString()} — ${text}`));
    while (activity.children.length > 50) activity.lastElementChild.remove();
  }
  function streamNote(text) {
    note(text);
    if (text === "stream ended") drawActions();
  }
  openStreams.get(key)?.listeners.add(streamNote);

  function toggleStream() {
    if (openStreams.has(key)) {
      closeStream(key);
      note("stream closed");
    } else {
      openStream(key, api.url(`${base}:stream`)).listeners.add(streamNote);
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
      note(`connected: ${result.events.length - deleted.length} notification(s) received`);
      for (const event of deleted) note(`messages deleted: ${event.count} (${event.reason})`);
    } catch (error) {
      toast(`Connect: ${error.message}`, "error");
    }
  }

  async function uninstall() {
    gone = true;
    try {
      await api.delete(base);
      closeStream(key);
      toast(device.unregisterAfter ? `Uninstalled: sends to its token are UNREGISTERED after ${device.unregisterAfter} s` : "Uninstalled: sends to its token are UNREGISTERED (after --unregister-after, if set)");
      location.hash = `#/p/${encodeURIComponent(project)}`;
    } catch (error) {
      gone = false;
      toast(`Uninstall: ${error.message}`, "error");
    }
  }

  /** The app reinstalled: a new device with a new token takes this one's place (docs/fcm.md). */
  async function reinstall() {
    gone = true;
    try {
      const fresh = await api.post(`${base}:reinstall`);
      closeStream(key);
      toast(`Reinstalled: the new token is ${fresh.token.slice(0, 16)}…`);
      location.hash = `#/p/${encodeURIComponent(project)}/devices/${encodeURIComponent(fresh.token)}`;
    } catch (error) {
      gone = false;
      toast(`Reinstall: ${error.message}`, "error");
    }
  }

  function drawFacts() {
    fill(facts, keyValues([
      ["FCM token", h("span", { class: "mono", id: "device-token" }, device.token)],
      ["Platform", device.platform],
      ...appFacts(device),
      ["App state", device.appState],
      ["Connected", device.connected ? "yes (a stream is open)" : "no"],
      ["Pending", h("span", { id: "device-pending" }, String(device.pendingCount))],
      ["Topics", device.topics.join(", ") || "none"],
      ["Registered", when(device.registeredAt)],
      ["Last connected", when(device.lastConnectedAt)],
    ]));
  }

  // The controls are drawn again only when what they show changed: a redraw would take the
  // keyboard's focus away and disarm a pressed Uninstall.
  let drawn = "";
  function drawActions() {
    const shown = JSON.stringify([device.appState, device.notificationServiceExtension, device.backgroundHandler, openStreams.has(key)]);
    if (shown === drawn) return;
    drawn = shown;
    const state = select("appState", ["foreground", "background", "notRunning"], device.appState);
    state.addEventListener("change", () => patch({ appState: state.value }, `app state: ${state.value}`));
    fill(actions,
      field("App state", state),
      platformSetting(),
      h("button", { type: "button", onclick: connectOnce }, "Connect once"),
      h("button", { type: "button", onclick: toggleStream, "aria-pressed": openStreams.has(key) ? "true" : "false" }, openStreams.has(key) ? "Close stream" : "Open stream"),
      confirmButton("Reinstall", reinstall),
      confirmButton("Uninstall", uninstall));
  }

  /** The platform's own switch: Apple's notification service extension, a web app's handler. */
  function platformSetting() {
    const setting = {
      ios: ["notificationServiceExtension", "Notification service extension", "notification service extension"],
      web: ["backgroundHandler", "onBackgroundMessage handler", "background handler"],
    }[device.platform];
    if (!setting) return null;
    const [name, label, words] = setting;
    const box = h("input", { type: "checkbox", name, checked: device[name] });
    box.addEventListener("change", () => patch({ [name]: box.checked }, `${words}: ${box.checked ? "on" : "off"}`));
    return field(label, box);
  }

  let pageToken = "";
  const newer = [];
  let loads = 0;
  async function loadDeliveries() {
    if (gone) return;
    const mine = ++loads;
    const page = await api.get(path`/projects/${project}/messages`, { token, pageSize: 20, pageToken });
    // A slower read that a newer one overtook (a live refresh while the reader paged) is dropped.
    if (mine !== loads) return;
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
      gone = true;
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
  function forgotten(why) {
    gone = true;
    drawn = "";
    fill(facts, h("p", { class: "warning" }, why));
    fill(actions);
    fill(deliveries);
    fill(pager);
  }
  const stop = onEvent((event) => {
    // A reset forgets the device; an import may bring it back, so it is read again.
    if (event.type === "state" && event.change === "reset") { forgotten("The emulator was reset: this device is gone."); return; }
    if (event.type === "state") { gone = false; refreshDevice(); refreshDeliveries(); return; }
    if (event.project !== project) return;
    if (event.type === "project" && event.change === "reset") { forgotten("The project was reset: this device is gone."); return; }
    if (event.type === "message") { refreshDevice(); if (!pageToken) refreshDeliveries(); }
    if (event.token !== token) return;
    if (event.type === "device" && event.change === "uninstalled") {
      forgotten("This device was uninstalled: sends to its token are now UNREGISTERED.");
      note("device uninstalled");
      return;
    }
    if (event.type === "device") { note(`device ${event.change}`); refreshDevice(); }
    if (event.type === "delivery") { refreshDevice(); refreshDeliveries(); }
    if (event.type === "messagesDeleted") { note(`messages deleted: ${event.count} (${event.reason})`); refreshDevice(); refreshDeliveries(); }
  });
  return () => {
    stop();
    openStreams.get(key)?.listeners.delete(streamNote);
  };
}
