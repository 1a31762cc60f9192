import type { FC } from 'hono/jsx';
import {
  codeLabel,
  type NaturalPersonValue,
  type NormalisedParty,
  withVisibleControls as v,
} from '../../travelrule/index.js';

/**
 * A transaction's IVMS101 data (originator and beneficiary) as definition lists. The values were
 * typed by customers of some VASP: they are only ever text (escaped by hono/jsx), with Unicode's
 * bidirectional controls shown rather than acting (`v`), and names isolated (<bdi>) from our own
 * words beside them.
 */

type Address = NonNullable<NaturalPersonValue['geographicAddress']>[number];

function addressLines(a: Address): string[] {
  const join = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined).join(' ');
  return [
    a.department,
    a.subDepartment,
    ...(a.addressLine ?? []),
    join(a.streetName, a.buildingNumber) || undefined,
    a.buildingName,
    a.floor !== undefined ? `Floor ${a.floor}` : undefined,
    a.room !== undefined ? `Room ${a.room}` : undefined,
    a.postBox !== undefined ? `PO box ${a.postBox}` : undefined,
    join(a.postCode, a.townName) || undefined,
    a.townLocationName,
    a.districtName,
    a.countrySubDivision,
    a.country,
  ].filter((l): l is string => l !== undefined && l !== '');
}

const Person: FC<{ p: NaturalPersonValue }> = ({ p }) => {
  const id = p.nationalIdentification;
  const birth = p.dateAndPlaceOfBirth;
  return (
    <dl>
      {p.name.nameIdentifier.map((n) => (
        <>
          <dt>{codeLabel('name', n.nameIdentifierType)}</dt>
          <dd>
            <bdi>{v(n.primaryIdentifier)}</bdi>
            {n.secondaryIdentifier !== undefined ? (
              <>
                {', '}
                <bdi>{v(n.secondaryIdentifier)}</bdi>
              </>
            ) : null}{' '}
            <span class="muted">(family name, given names)</span>
          </dd>
        </>
      ))}
      {birth?.dateOfBirth !== undefined ? (
        <>
          <dt>Date of birth</dt>
          <dd>{v(birth.dateOfBirth)}</dd>
        </>
      ) : null}
      {birth?.placeOfBirth !== undefined ? (
        <>
          <dt>Place of birth</dt>
          <dd>{v(birth.placeOfBirth)}</dd>
        </>
      ) : null}
      {id ? (
        <>
          <dt>National identification</dt>
          <dd>
            {[
              id.nationalIdentifierType !== undefined
                ? codeLabel('national', id.nationalIdentifierType)
                : undefined,
              id.nationalIdentifier,
              id.countryOfIssue !== undefined ? `issued in ${id.countryOfIssue}` : undefined,
            ]
              .filter((x) => x !== undefined)
              .map(v)
              .join(', ')}
          </dd>
        </>
      ) : null}
      {(p.geographicAddress ?? []).map((a, i, all) => (
        <>
          <dt>{`${all.length > 1 ? `Address ${i + 1}` : 'Address'}: ${codeLabel('address', a.addressType)}`}</dt>
          <dd>
            {addressLines(a).map((line, j) => (
              <>
                {j > 0 ? <br /> : null}
                {v(line)}
              </>
            ))}
          </dd>
        </>
      ))}
      {p.customerIdentification !== undefined ? (
        <>
          <dt>Customer identification</dt>
          <dd class="mono">{v(p.customerIdentification)}</dd>
        </>
      ) : null}
    </dl>
  );
};

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
              <Person p={person.naturalPerson} />
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
