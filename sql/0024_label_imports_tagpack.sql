-- Label imports read a third format: GraphSense TagPacks (YAML, src/aml/labels/tagpack.ts).
alter table label_imports drop constraint label_imports_format_check;
alter table label_imports add constraint label_imports_format_check
  check (format in ('ofac', 'csv', 'tagpack'));
