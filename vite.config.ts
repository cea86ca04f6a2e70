import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.ts';
import { schemaAnnotations } from './scripts/schema-annotations.ts';

export default defineConfig({
  plugins: [react(), precompress(), schemaAnnotations()],
  resolve: {
    // A polyfill of what every supported browser has (scripts/shims/object-entries.cjs).
    alias: [
      {
        find: /^object\.entries$/,
        replacement: fileURLToPath(new URL('./scripts/shims/object-entries.cjs', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What the entry (the sign-in shell) imports statically, in one file.
            { name: 'shell', tags: ['$initial'], priority: 2 },
            // What the admin needs of react-admin and MUI, in one file rather than dozens of small
            // ones cut per importer; MUI X (the date pickers) stays apart, loaded with the first date input,
            // and MUI's French texts, loaded with the French messages.
            {
              name: 'admin-vendor',
              test: /node_modules[\\/](react-admin|ra-core|ra-ui-materialui|@tanstack|react-hook-form|@mui[\\/](?!x-|material[\\/]locale)|@emotion)[\\/]/,
              priority: 1,
            },
            // The list pages with the engine modules they import (badges, lookups, dates), in one file rather
            // than a dozen small ones shared with the record pages, which then import them from it.
            { name: 'list-pages', test: /src[\\/]schema[\\/]ui[\\/]list-pages\.tsx$/, priority: 0 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/webtool': 'http://127.0.0.1:8080',
      '/__identity': 'http://127.0.0.1:8080',
      '/__dev': 'http://127.0.0.1:8080',
      '/uploads': 'http://127.0.0.1:8080',
    },
  },
});
