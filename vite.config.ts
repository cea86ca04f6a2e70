import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'amplify', test: /node_modules[\\/](aws-amplify|@aws-amplify|@smithy|@aws-crypto)/ },
            // MUI X (the date pickers) is loaded with the first date or time input, not with the app.
            { name: 'mui', test: /node_modules[\\/](@mui[\\/](?!x-)|@emotion)/ },
            {
              name: 'react-admin',
              test: /node_modules[\\/](react-admin|ra-core|ra-ui-materialui|ra-i18n-polyglot|ra-language-english|@tanstack|react-hook-form)[\\/]/,
            },
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
