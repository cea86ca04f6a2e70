// The browser build's `object.entries` (required by node-polyglot, react-admin's translator): the
// browsers the app supports all have Object.entries, and the polyfill package brings ~20 KB of
// helpers (get-intrinsic, call-bind, define-properties) into the sign-in entry. Aliased in vite.config.ts.
module.exports = Object.entries;
