// One event stream (GET /emulator/v1/events) shared by every open inbox tab: a browser opens at
// most six HTTP/1.1 connections to a host, and a stream per tab would use them up.
const types = ["message", "delivery", "messagesDeleted", "device", "project", "clock", "state"];
const ports = new Set();
let status = "connecting";
const source = new EventSource("/emulator/v1/events");

function broadcast(message) {
  for (const port of ports) port.postMessage(message);
}

source.onopen = () => { status = "live"; broadcast({ status }); };
source.onerror = () => { status = "reconnecting"; broadcast({ status }); };
for (const type of types) {
  source.addEventListener(type, (event) => broadcast({ type, data: event.data }));
}

onconnect = (event) => {
  const port = event.ports[0];
  ports.add(port);
  port.onmessage = (message) => { if (message.data === "bye") ports.delete(port); };
  port.postMessage({ status });
};
