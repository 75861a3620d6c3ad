import ControlProtocol

/// docs/configuration.md's table of settings, generated from `SettingsCatalog`.
public enum SettingsReference {
    public static let section = GeneratedSection(source: "SettingsCatalog")

    public static var markdownTable: String {
        var text = "| key / flag | default | reload | meaning |\n|---|---|---|---|\n"
        for spec in SettingsCatalog.all {
            text += "| `\(spec.name)` / `--\(spec.name) \(spec.placeholder)` | `\(spec.defaultText)` | "
            text += (spec.isReloadable ? "yes" : "at restart") + " | \(GeneratedSection.tableCell(spec.summary)) |\n"
        }
        return text
    }
}
