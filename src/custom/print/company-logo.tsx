/** The operator's mark, drawn inline so print pages need no image request. */
export function CompanyLogo({ name, height = 16 }: { name: string; height?: number }) {
  return (
    <svg height={height} viewBox="0 0 120 24" role="img" aria-label={name}>
      <rect x="0" y="2" width="20" height="20" rx="4" fill="#1565c0" />
      <rect x="5" y="7" width="10" height="10" rx="1" fill="#fff" />
      <text x="26" y="17" fontSize="12" fontFamily="Arial, sans-serif" fill="#000">
        {name}
      </text>
    </svg>
  );
}
