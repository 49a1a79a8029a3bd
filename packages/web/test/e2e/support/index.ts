export * from "./browser.js";
export * from "./chat-page.js";
export * from "./screenshots.js";
export * from "./web-dist.js";
export * from "./web-server.js";
