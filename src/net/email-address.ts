import { domainToASCII } from 'node:url';

/**
 * An e-mail address as Tollgate sends to it: a dot-atom local part (RFC 5322: letters, digits and
 * !#$%&'*+/=?^_`{|}~- between dots) of at most 64 characters (RFC 5321), and a host name,
 * written in Unicode (bücher.example) or in its ASCII form (xn--bcher-kva.example); stored with
 * the ASCII form of its domain, in lower case, as every relay takes it. Quoted local parts and
 * address literals (`user@[192.0.2.1]`) are valid mail addresses but not taken: a counterparty's
 * compliance desk has neither, and a literal would send personal data's link to an IP address.
 */
export type MailAddress = { ok: true; address: string } | { ok: false; reason: string };

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const HOST_NAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export function mailAddress(input: string): MailAddress {
  const refuse = (reason: string): MailAddress => ({ ok: false, reason });
  const at = input.lastIndexOf('@');
  if (at <= 0 || at === input.length - 1) return refuse('must be an address: local-part@domain');
  const local = input.slice(0, at);
  const domain = input.slice(at + 1);
  if (local.startsWith('"')) return refuse('a quoted part before @ is not taken');
  if (domain.startsWith('[')) return refuse('an address literal is not taken: give a domain');
  if (local.length > 64) return refuse('the part before @ must be at most 64 characters');
  if (!LOCAL_PART.test(local))
    return refuse(
      "the part before @ must be letters, digits and !#$%&'*+/=?^_`{|}~- between single dots",
    );
  const ascii = domainToASCII(domain);
  if (!HOST_NAME.test(ascii)) return refuse('the part after @ must be a domain name');
  const address = `${local}@${ascii}`;
  if (address.length > 254) return refuse('must be at most 254 characters');
  return { ok: true, address };
}
