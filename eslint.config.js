import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Imports flow one way (ARCHITECTURE.md): schema <- dataProvider/authProvider <- resources/custom <- app. */
const layer = (files, forbidden, message) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((regex) => ({ regex, message })) }],
  },
});

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'data/',
      '.tmp/',
      'src/types/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // One typed gateway client (src/schema/ui/gateway-api.ts): no private cast of the dataProvider.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "TSAsExpression > CallExpression[callee.name='useDataProvider']",
          message:
            'Call the gateway through useGateway() (src/schema/ui/gateway-api.ts), not a cast of the dataProvider.',
        },
        {
          selector: 'TSAsExpression[expression.name=/^(dataProvider|provider|caller)$/]',
          message:
            'Call the gateway through useGateway() (src/schema/ui/gateway-api.ts), not a cast of the dataProvider.',
        },
      ],
    },
  },
  layer(
    ['src/schema/ui/**'],
    ['/(app|resources|custom|dataProvider|authProvider)/'],
    'src/schema knows nothing of the app.',
  ),
  layer(
    ['src/schema/*.ts', 'src/schema/validators/**'],
    ['/(app|resources|custom|dataProvider|authProvider|ui)/', '^(react|react-dom|react-admin|@mui/.*)$'],
    'The pure engine is shared with the gateway: no React, no app modules.',
  ),
  layer(['locales/**'], ['/src/'], 'locales know nothing of the app.'),
  layer(
    ['src/dataProvider/**', 'src/authProvider/**'],
    ['/(app|resources|custom)/'],
    'dataProvider and authProvider may only use schema.',
  ),
  layer(
    ['src/resources/**'],
    ['/(app|custom)/', '^\\.\\./(?!\\.\\.)'],
    'Resources never import the app, custom pages or each other.',
  ),
  layer(['src/custom/**'], ['/(app|resources)/'], 'Custom pages never import the app or resources.'),
  layer(
    ['src/contract/**'],
    ['^(?!\\./)'],
    "src/contract holds the gateway's request and response shapes: pure types and constants, importing nothing else.",
  ),
  layer(
    ['src/custom/*/**'],
    ['/(app|resources)/', '^\\.\\./(?!\\.\\.)'],
    'Custom pages never import the app, resources or another custom folder.',
  ),
  layer(
    ['server/**'],
    ['/src/(?!schema/|contract/|types/generated/)', '/src/schema/ui/', '^react', '^@mui/'],
    'server/ shares only schemas, the pure modules of src/schema, src/contract and the generated record types with the browser.',
  ),
);
