import { toast } from "./dom.js";

// The emulator's live events in this tab: from the tabs' shared stream (live-worker.js), or, where
// a browser has no shared workers, from a stream of the tab's own.
const listeners = new Set();
const types = ["message", "delivery", "messagesDeleted", "device", "project", "clock", "state"];

function deliver(type, data) {
  let event;
  try { event = JSON.parse(data); } catch { return; }
  event.type = type;
  for (const listener of listeners) listener(event);
}

function showStatus(status) {
  const element = document.getElementById("live");
  element.textContent = status === "live" ? "● live" : status;
  element.classList.toggle("on", status === "live");
}

/** Starts receiving; call once. */
export function startLive() {
  if (typeof SharedWorker === "function") {
    const worker = new SharedWorker("live-worker.js", { name: "push-emulator-events" });
    worker.port.onmessage = (message) => {
      if (message.data.status) showStatus(message.data.status);
      if (message.data.type) deliver(message.data.type, message.data.data);
    };
    worker.port.start();
    addEventListener("pagehide", () => worker.port.postMessage("bye"));
    return;
  }
  const source = new EventSource("/emulator/v1/events");
  source.onopen = () => showStatus("live");
  source.onerror = () => showStatus("reconnecting");
  for (const type of types) source.addEventListener(type, (event) => deliver(type, event.data));
}

/** Calls `listener(event)` for every event until the returned function is called. */
export function onEvent(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Runs `refresh` at most once per `delay` ms however many calls come: a burst of sends becomes a
 * few reads of one page, not one read per send.
 */
export function throttled(refresh, delay = 250) {
  let timer = null;
  let again = false;
  const run = async () => {
    again = false;
    try {
      await refresh();
    } catch (error) {
      // A read that fails now (a device just uninstalled, a log just cleared) is told, not thrown.
      toast(error.message, "error");
    } finally {
      timer = again ? setTimeout(run, delay) : null;
    }
  };
  return () => {
    if (timer) { again = true; return; }
    timer = setTimeout(run, delay);
  };
}
