import { parse } from 'graphql';
import { greetsPerson, welcomeText } from '../../../src/server/welcome';

const API = 'http://127.0.0.1:4000/graphql';
const KEY = 'q1Wz-_example-admin-key-0123456789';

const linesOf = (text: string) => text.split('\n');

/** The next command's request body, as the shell hands it to curl (inside single quotes nothing is expanded). */
function curlBody(text: string): { query: string } {
  const command = linesOf(text).find((line) => line.trimStart().startsWith('curl '));
  if (!command) throw new Error(`no curl line in:\n${text}`);
  const body = /-d '([^']*)'$/.exec(command);
  if (!body) throw new Error(`no single-quoted body in: ${command}`);
  return JSON.parse(body[1]) as { query: string };
}

describe('greetsPerson', () => {
  it('greets a terminal outside production', () => {
    expect(greetsPerson({ isTTY: true }, 'development')).toBe(true);
    expect(greetsPerson({ isTTY: true }, 'test')).toBe(true);
  });

  it('leaves production and output that is not a terminal to the JSON log lines', () => {
    expect(greetsPerson({ isTTY: true }, 'production')).toBe(false);
    expect(greetsPerson({ isTTY: false }, 'development')).toBe(false);
    // A pipe or file: Node leaves isTTY undefined.
    expect(greetsPerson({}, 'development')).toBe(false);
  });
});

describe('welcomeText', () => {
  it('names the API, the explorer, the spectator pages and the key on lines of their own', () => {
    const lines = linesOf(welcomeText({ api: API, explorer: true, adminKey: KEY }));
    expect(lines).toEqual(
      expect.arrayContaining([
        `  GraphQL API:     ${API}`,
        `  Explorer:        ${API}  (open it in a browser)`,
        '  Spectator pages: http://127.0.0.1:4000/live/<boardId>',
        `Admin key: ${KEY}`,
        `  export KEY=${KEY}`,
      ]),
    );
    expect(lines.some((line) => line.includes(`"Authorization: Bearer ${KEY}"`))).toBe(true);
  });

  it('names no explorer when the server gives none (EXPLORER=false)', () => {
    const text = welcomeText({ api: API, explorer: false, adminKey: KEY });
    expect(text).not.toMatch(/explorer/i);
    expect(linesOf(text)).toContain(`  GraphQL API:     ${API}`);
  });

  it('stands apart from the log lines around it', () => {
    const text = welcomeText({ api: API, explorer: true, adminKey: KEY });
    expect(text.startsWith('\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(true);
  });

  it('suggests a curl that creates a board, whose body is JSON holding a valid GraphQL document', () => {
    const text = welcomeText({ api: API, explorer: true, adminKey: KEY });
    const { query } = curlBody(text);
    expect(() => parse(query)).not.toThrow();
    expect(query).toMatch(/^mutation \{ createLeaderboard\(input: \{ id: "blitz"/);
    expect(text).toContain(`curl -s ${API} -H "authorization: Bearer $KEY"`);
    expect(text).toContain("README's tour");
  });

  it('without a key of its own, says where a key comes from and prints no "Admin key" line', () => {
    const text = welcomeText({ api: API, explorer: true });
    expect(text).not.toMatch(/^Admin key:/m);
    expect(text).toContain('Send a key from STANDINGS_API_KEYS as the header "Authorization: Bearer <key>".');
    expect(text).toContain('export KEY=<an admin key from STANDINGS_API_KEYS>');
  });

  it("for the demo, adds its board's spectator page and reads that board", () => {
    const text = welcomeText({ api: API, explorer: true, adminKey: KEY, board: { id: 'demo-blitz', top: 20 } });
    expect(linesOf(text)).toContain('  Demo board:      http://127.0.0.1:4000/live/demo-blitz?top=20');
    const { query } = curlBody(text);
    expect(() => parse(query)).not.toThrow();
    expect(query).toContain('leaderboard(id: "demo-blitz")');
  });
});
