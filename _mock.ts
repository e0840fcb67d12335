import { MockServer } from "/work/main/test/support/mock-server.ts";
const s = await new MockServer().start();
for (let i = 0; i < 50; i++) s.script({ turns: [{ text: "ok" }] });
console.log(s.url);
await Bun.sleep(600000);
