import { defaultTheme, type RaThemeOptions } from 'react-admin';

/**
 * react-admin's theme with darker blues and a darker red: text on them, red text (a Delete button) on
 * the form toolbar's grey and the values of disabled inputs meet WCAG AA contrast (axe checks it).
 */
export const theme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: '#1565c0' },
    secondary: { main: '#0d47a1' },
    error: { main: '#b71c1c' },
  },
  components: {
    ...defaultTheme.components,
    // A value of a disabled input (a read-only list of badges) stays readable: MUI fades a disabled
    // chip to 38 % opacity, below contrast; the input around it shows that it cannot be changed.
    MuiChip: { styleOverrides: { root: { '&.Mui-disabled': { opacity: 1 } } } },
  },
};
