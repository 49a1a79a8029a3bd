export { createLruCache, type LruCache, type LruCacheOptions } from "./lru-cache.js";
