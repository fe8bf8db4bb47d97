import { useId } from 'react';
import { Icon } from './shell-icons.tsx';

export { AlertIcon, BackIcon, EyeIcon } from './shell-icons.tsx';

export const HomeIcon = () => (
  <Icon>
    <path d="M3 10.5 12 3l9 7.5" />
    <path d="M5 9.5V20a1 1 0 0 0 1 1h4v-6h4v6h4a1 1 0 0 0 1-1V9.5" />
  </Icon>
);

export const TradeIcon = () => (
  <Icon>
    <path d="M7 4v14" />
    <path d="m3 14 4 4 4-4" />
    <path d="M17 20V6" />
    <path d="m21 10-4-4-4 4" />
  </Icon>
);

export const MarketIcon = () => (
  <Icon>
    <path d="M3 3v18h18" />
    <path d="M8 9v6" />
    <path d="M7 10h2v4H7z" fill="currentColor" />
    <path d="M13 6v8" />
    <path d="M12 7h2v5h-2z" fill="currentColor" />
    <path d="M18 10v7" />
    <path d="M17 12h2v3h-2z" fill="currentColor" />
  </Icon>
);

export const AssetsIcon = () => (
  <Icon>
    <path d="M4 7a2 2 0 0 1 2-2h12v4" />
    <path d="M4 7v11a2 2 0 0 0 2 2h14V9H6a2 2 0 0 1-2-2Z" />
    <circle cx="16" cy="14.5" r="1.2" fill="currentColor" />
  </Icon>
);

export const MineIcon = () => (
  <Icon>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c0-4 3.6-7 8-7s8 3 8 7" />
  </Icon>
);

export const GlobeIcon = () => (
  <Icon size={18}>
    <circle cx="12" cy="12" r="9" />
    <path d="M3 12h18" />
    <path d="M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3Z" />
  </Icon>
);

export const HeadsetIcon = () => (
  <Icon size={28}>
    <path d="M4 14v-2a8 8 0 0 1 16 0v2" />
    <path d="M4 14a2 2 0 0 1 2-2h1v6H6a2 2 0 0 1-2-2v-2Z" />
    <path d="M20 14a2 2 0 0 0-2-2h-1v6h1a2 2 0 0 0 2-2v-2Z" />
    <path d="M18 18c0 1.7-1.8 3-4 3h-2" />
  </Icon>
);

export const ChevronIcon = () => (
  <Icon size={18}>
    <path className="flip-rtl" d="m9 6 6 6-6 6" />
  </Icon>
);


export const ShieldIcon = () => (
  <Icon size={20}>
    <path d="M12 3 5 6v5c0 4.5 3 8.3 7 10 4-1.7 7-5.5 7-10V6l-7-3Z" />
    <path d="m9 12 2 2 4-4" />
  </Icon>
);

export const CheckIcon = () => (
  <Icon size={18}>
    <path d="m5 12 5 5 9-10" />
  </Icon>
);

export const ClockIcon = () => (
  <Icon size={18}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Icon>
);


export const DocumentIcon = () => (
  <Icon size={20}>
    <path d="M6 3h8l4 4v14H6z" />
    <path d="M14 3v4h4" />
    <path d="M9 12h6M9 16h6" />
  </Icon>
);


export function LogoMark({ size = 40 }: { size?: number }) {
  const gradient = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false" className="logo-mark">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="64" y2="64" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#19c6b4" />
          <stop offset="1" stopColor="#2a6df4" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill={`url(#${gradient})`} />
      <path d="M14 40h36l-6 10H20z" fill="#ffffff" />
      <path d="M31 10h3v27h-3z" fill="#ffffff" />
      <path d="M35 14l13 20H35z" fill="#ffffff" opacity="0.8" />
    </svg>
  );
}

/** Two opposed arrows; flipped in right-to-left pages so "from → to" keeps reading forwards. */
export const TransferIcon = () => (
  <Icon>
    <g className="flip-rtl">
      <path d="M4 8h15" />
      <path d="m15 4 4 4-4 4" />
      <path d="M20 16H5" />
      <path d="m9 12-4 4 4 4" />
    </g>
  </Icon>
);

export const ExchangeIcon = () => (
  <Icon>
    <path d="M20 11a8 8 0 0 0-14.3-4.9L4 8" />
    <path d="M4 4v4h4" />
    <path d="M4 13a8 8 0 0 0 14.3 4.9L20 16" />
    <path d="M20 20v-4h-4" />
  </Icon>
);

export const RecordsIcon = () => (
  <Icon>
    <path d="M8 6h12M8 12h12M8 18h12" />
    <circle cx="4" cy="6" r="1" fill="currentColor" />
    <circle cx="4" cy="12" r="1" fill="currentColor" />
    <circle cx="4" cy="18" r="1" fill="currentColor" />
  </Icon>
);

/** A forward arrow; flipped in right-to-left pages. */
export const ArrowIcon = () => (
  <Icon size={18}>
    <path className="flip-rtl" d="M5 12h14m-5-5 5 5-5 5" />
  </Icon>
);

export const SwapVerticalIcon = () => (
  <Icon size={20}>
    <path d="M8 4v16m0 0-4-4m4 4 4-4" />
    <path d="M16 20V4m0 0-4 4m4-4 4 4" />
  </Icon>
);

export const StarIcon = ({ filled }: { filled: boolean }) => (
  <Icon size={22}>
    <path d="m12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" fill={filled ? 'currentColor' : 'none'} />
  </Icon>
);

/** An arrow into a tray: money coming in. */
export const DepositIcon = () => (
  <Icon>
    <path d="M12 3v11" />
    <path d="m7 10 5 5 5-5" />
    <path d="M4 15v4a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-4" />
  </Icon>
);

/** An arrow out of a tray: money going out. */
export const WithdrawIcon = () => (
  <Icon>
    <path d="M12 15V4" />
    <path d="m7 8 5-5 5 5" />
    <path d="M4 15v4a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-4" />
  </Icon>
);

export const WalletIcon = () => (
  <Icon size={20}>
    <path d="M4 7a2 2 0 0 1 2-2h12v4" />
    <path d="M4 7v11a2 2 0 0 0 2 2h14V9H6a2 2 0 0 1-2-2Z" />
    <circle cx="16" cy="14.5" r="1.2" fill="currentColor" />
  </Icon>
);

export const CardIcon = () => (
  <Icon size={20}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3 10h18" />
    <path d="M7 15h4" />
  </Icon>
);
