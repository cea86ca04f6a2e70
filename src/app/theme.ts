import type { Theme } from '@mui/material/styles';
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
    // A list's filters stay on one line (issue 24.5): when they and the list's buttons do not fit
    // side by side, the buttons move to a line of their own, right-aligned, instead of the filters
    // folding into two or three rows beside them. Phones keep react-admin's stacked layout.
    RaListToolbar: {
      styleOverrides: {
        root: ({ theme: current }: { theme: Theme }) => ({
          [current.breakpoints.up('sm')]: {
            flexWrap: 'wrap',
            '& > :last-child:not(:first-child)': { marginLeft: 'auto' },
          },
        }),
      },
    },
  },
};
