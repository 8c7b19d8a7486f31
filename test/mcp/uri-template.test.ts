import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { describe, expect, it } from 'vitest';
import { compileUriTemplate, UriTemplateError } from '../../src/mcp/uri-template.js';
import { uriProblem } from '../../src/mcp/uri-guard.js';

const sdkMatches = (template: string, uri: string) => new UriTemplate(template).match(uri) !== null;

describe('G5 resource templates: a linear matcher', () => {
  const cases: Array<[string, string]> = [
    ['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/text/7'],
    ['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/text/7/x'],
    ['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/text/'],
    ['file:///{+path}', 'file:///etc/a/b.txt'],
    ['git://{+repo}/blob/{+path}', 'git://org/repo/blob/main/src/a.ts'],
    ['git://{+repo}/blob/{+path}', 'git://org/repo/tree/main'],
    ['users://{id}/profile', 'users://42/profile'],
    ['users://{id}/profile', 'users://4/2/profile'],
    ['search://q{?query,limit}', 'search://q?query=cats&limit=5'],
    ['search://q{?query,limit}', 'search://q?query=cats'],
    ['x://{a}{.ext}', 'x://name.txt'],
    ['x://p{/seg}', 'x://p/one'],
    ['x://{list*}', 'x://a,b,c'],
    ['x://{list}', 'x://a,b'],
  ];

  it('G5: agrees with the SDK matcher on ordinary templates', () => {
    for (const [template, uri] of cases)
      expect(compileUriTemplate(template).matches(uri), `${template} ~ ${uri}`).toBe(sdkMatches(template, uri));
  });

  it('G5: adjacent expressions do not compile (the caller drops the template)', () => {
    expect(() => compileUriTemplate('h:{v0}{v1}{v2}')).toThrow(UriTemplateError);
    expect(() => compileUriTemplate('x://{+a}{b}')).toThrow(/adjacent expressions/);
    expect(() => compileUriTemplate('x://{a')).toThrow(UriTemplateError);
  });

  it('G5: a 180 KB URI against {+repo}/blob/{+path} is answered in one scan', () => {
    const matcher = compileUriTemplate('git://{+repo}/blob/{+path}');
    expect(matcher.matches(`git://${'/blob'.repeat(36_000)}x`)).toBe(true);
    expect(matcher.matches(`git://${'a/'.repeat(90_000)}`)).toBe(false);
  });

  it('G5: URIs past the length limit or with control characters are refused', () => {
    expect(uriProblem('a://b', 10)).toBeUndefined();
    expect(uriProblem('a://' + 'b'.repeat(20), 10)).toMatch(/limit is 10 \(resourceUriChars\)/);
    expect(uriProblem('a://b\u0000c', 100)).toMatch(/control character \(U\+0000\) at 5/);
    expect(uriProblem('a://b\u0085c', 100)).toMatch(/U\+0085/);
  });
});
