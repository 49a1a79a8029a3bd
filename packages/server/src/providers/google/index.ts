export { createGoogleProvider, GOOGLE_DEFAULT_BASE_URL } from "./google-provider.js";
