/**
 * The floor of bench:live: a plain `ws` server, nothing else, that sends one ready-made frame to
 * every connected socket at a given rate. What it spends per delivered frame is what any server
 * written on `ws` spends at least; bench/live.ts runs it as a child process, like the server it
 * compares it with, and reads its CPU time.
 *
 * Messages from the parent: { frame, intervalMs } starts sending (the frame to every socket
 * each interval); 'mark' starts the measurement over (after a warm-up); 'stop' stops, answers
 * { cpuSeconds, sent } for the time since the start or the mark, and exits.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

if (!process.send) throw new Error('bench/wsFloor.ts runs as a child of bench/live.ts');
const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
let timer: NodeJS.Timeout | undefined;
let started = process.cpuUsage();
let sent = 0;

server.on('listening', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('disconnect', () => process.exit(0));
process.on('message', (message: { frame: string; intervalMs: number } | 'mark' | 'stop') => {
  if (message === 'mark') {
    started = process.cpuUsage();
    sent = 0;
    return;
  }
  if (message === 'stop') {
    clearInterval(timer);
    const cpu = process.cpuUsage(started);
    process.send!({ cpuSeconds: (cpu.user + cpu.system) / 1e6, sent }, () => process.exit(0));
    return;
  }
  const frame = Buffer.from(message.frame);
  started = process.cpuUsage();
  timer = setInterval(() => {
    for (const socket of server.clients) socket.send(frame);
    sent += server.clients.size;
  }, message.intervalMs);
});
