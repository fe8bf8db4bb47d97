import { type ContractData, listMessagesContract, markMessagesReadContract, unreadContract } from '@keel/contracts';
import { useEffect, useRef } from 'react';
import { useContractMutation } from '../../shared/api/queries.ts';
import { usePagedQuery } from '../../shared/api/usePagedQuery.ts';
import { useI18n } from '../../shared/i18n/I18nProvider.tsx';
import { PagedWalletList } from '../wallet/WalletList.tsx';
import { Time } from '../wallet/WalletParts.tsx';
import { newestId } from './messages.ts';
import './messages.css';

type MessagePage = ContractData<typeof listMessagesContract>;
type SystemMessage = MessagePage['items'][number];

function MessageRow({ message }: { message: SystemMessage }) {
  const { t } = useI18n();
  return (
    <li className={message.read ? 'wallet-row message-row' : 'wallet-row message-row is-new'} data-testid={`message-row-${message.id}`} data-read={message.read ? 'true' : 'false'}>
      <div className="wallet-row-head">
        <strong data-testid="message-title">{message.title}</strong>
        {!message.read && (
          <span className="state-badge wallet-status wallet-status-pending" data-testid="message-unread">
            {t('web.message.unread')}
          </span>
        )}
      </div>
      {/* The server wrote the text; it is shown as text, never as HTML. */}
      <p className="message-body" data-testid="message-body">
        {message.body}
      </p>
      <Time iso={message.createdAt} testId="message-time" />
    </li>
  );
}

/**
 * /message: what Keel told the user (verification decisions, deposits and withdrawals, P2P order
 * steps), newest first and paged, the unread ones marked as they were when the page opened. Once
 * a page is shown, everything up to its newest message is marked read on the server, so the tab
 * bar's unread flag clears at the next tab change.
 */
export function SystemMessages() {
  const { t } = useI18n();
  const list = usePagedQuery(listMessagesContract, {});
  // Only the tab bar's flag changes: the list keeps showing what was new when it was opened.
  const markRead = useContractMutation(markMessagesReadContract, { invalidates: [unreadContract] });
  const mark = markRead.mutate;
  const markedUpTo = useRef<string | null>(null);
  // The page as the server answered it: the list's own shape plus the unread count.
  const data = list.data as MessagePage | null;

  useEffect(() => {
    if (!data) return;
    const upToId = newestId(data.items);
    if (!data.items.some((each) => !each.read) || upToId === null || markedUpTo.current === upToId) return;
    markedUpTo.current = upToId;
    // The flag is a convenience: a failed mark only leaves it on until the next visit.
    mark(
      { body: { upToId } },
      {
        onError: () => {
          markedUpTo.current = null;
        },
      },
    );
  }, [data, mark]);

  return (
    <>
      {data && (
        <p className="muted" data-testid="messages-unread-count" data-unread={data.unread}>
          {data.unread > 0 ? t('web.message.unreadCount', { count: data.unread }) : t('web.message.allRead')}
        </p>
      )}
      <PagedWalletList list={list} emptyText={t('web.message.empty')} testId="messages">
        {(message) => <MessageRow key={message.id} message={message} />}
      </PagedWalletList>
    </>
  );
}
