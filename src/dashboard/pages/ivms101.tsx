import type { FC } from 'hono/jsx';
import {
  type NormalisedParty,
  type PersonRow,
  type PersonValue,
  personRows,
  withVisibleControls as v,
} from '../../travelrule/index.js';

/**
 * A transaction's IVMS101 data (originator and beneficiary) as definition lists. The values were
 * typed by customers of some VASP: they are only ever text (escaped by hono/jsx), with Unicode's
 * bidirectional controls shown rather than acting (`v`), and names isolated (<bdi>) from our own
 * words beside them.
 */

/** A row of personRows: names isolated (<bdi>), identifiers in monospace. */
const RowValue: FC<{ row: PersonRow }> = ({ row }) => (
  <>
    {row.parts.map((part, i) => (
      <>
        {i > 0 ? row.join === 'lines' ? <br /> : ', ' : null}
        {part.kind === 'name' ? (
          <bdi>{v(part.text)}</bdi>
        ) : part.kind === 'id' ? (
          <span class="mono">{v(part.text)}</span>
        ) : (
          v(part.text)
        )}
      </>
    ))}
    {row.note !== undefined ? (
      <>
        {' '}
        <span class="muted">{row.note}</span>
      </>
    ) : null}
  </>
);

const Person: FC<{ p: PersonValue }> = ({ p }) => (
  <dl>
    {personRows(p).map((row) => (
      <>
        <dt>{row.label}</dt>
        <dd>
          <RowValue row={row} />
        </dd>
      </>
    ))}
  </dl>
);

export const Party: FC<{ title: string; slug: string; party: NormalisedParty | undefined }> = ({
  title,
  slug,
  party,
}) => (
  <section aria-labelledby={slug}>
    <h3 id={slug}>{title}</h3>
    {!party ? (
      <p>Not given.</p>
    ) : (
      <>
        {party.persons.length === 0 ? (
          <p>No person given.</p>
        ) : (
          party.persons.map((person, i) => (
            <>
              {party.persons.length > 1 ? <h4>Person {i + 1}</h4> : null}
              <Person p={person} />
            </>
          ))
        )}
        <h4>Wallet addresses (account numbers)</h4>
        {party.accountNumber.length ? (
          <ul>
            {party.accountNumber.map((a) => (
              <li>
                <code>{v(a)}</code>
              </li>
            ))}
          </ul>
        ) : (
          <p>None given.</p>
        )}
      </>
    )}
  </section>
);
