import { Command, type Redis } from 'ioredis';
import { metricsText, timeRedisCommands } from '../../../src/server/metrics';

/** The number of commands of that name and outcome timed so far. */
async function timed(command: string, outcome: 'ok' | 'error'): Promise<number> {
  const line = (await metricsText()).split('\n').find((text) =>
    text.startsWith(`standings_redis_command_duration_seconds_count{command="${command}",outcome="${outcome}"}`));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** A client whose sendCommand settles each command at once as the test says, as ioredis' would on its reply. */
function fakeClient(settle: (command: Command) => void) {
  const client = {
    sent: 0,
    sendCommand(command: Command) {
      client.sent++;
      settle(command);
      return command.promise;
    },
  };
  return client;
}

describe('timeRedisCommands', () => {
  it('times each command once by name and outcome, however often the client or the command is passed through', async () => {
    const client = fakeClient((command) => (command.name === 'hget' ? command.reject(new Error('down')) : command.resolve('1')));
    const asRedis = client as unknown as Redis;
    timeRedisCommands(asRedis);
    // A second server given the same client must not time its commands twice.
    timeRedisCommands(asRedis);
    const [okBefore, errorsBefore] = [await timed('zcard', 'ok'), await timed('hget', 'error')];

    await asRedis.sendCommand(new Command('zcard', ['k']));
    const resent = new Command('zcard', ['k']);
    // ioredis sends a queued command again through sendCommand when its queue is flushed.
    await asRedis.sendCommand(resent);
    await asRedis.sendCommand(resent);
    await expect(asRedis.sendCommand(new Command('hget', ['k', 'f']))).rejects.toThrow('down');

    expect(client.sent).toBe(4);
    expect(await timed('zcard', 'ok')).toBe(okBefore + 2);
    expect(await timed('hget', 'error')).toBe(errorsBefore + 1);
  });
});
