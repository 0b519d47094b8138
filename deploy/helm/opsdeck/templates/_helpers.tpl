{{/*
Helpers, written in the subset of Helm's template language the chart's render test supports (see
README.md): define/template, if/else, range, with, and the functions default, quote, toJson, trunc,
trimSuffix, printf, dict, b64enc, sha256sum. Labels are printed as JSON flow maps so they need no
indentation helpers (include / toYaml / nindent).
*/}}

{{- define "opsdeck.name" -}}
{{ .Values.nameOverride | default .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "opsdeck.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{ .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else -}}
{{ printf "%s-%s" .Release.Name (.Values.nameOverride | default .Chart.Name) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "opsdeck.selectorLabels" -}}
{{ toJson (dict "app.kubernetes.io/name" (.Values.nameOverride | default .Chart.Name) "app.kubernetes.io/instance" .Release.Name) }}
{{- end }}

{{- define "opsdeck.labels" -}}
{{ toJson (dict "app.kubernetes.io/name" (.Values.nameOverride | default .Chart.Name) "app.kubernetes.io/instance" .Release.Name "app.kubernetes.io/version" (.Values.image.tag | default .Chart.AppVersion) "app.kubernetes.io/managed-by" .Release.Service "helm.sh/chart" (printf "%s-%s" .Chart.Name .Chart.Version)) }}
{{- end }}

{{- define "opsdeck.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{ .Values.serviceAccount.name | default (printf "%s-%s" .Release.Name (.Values.nameOverride | default .Chart.Name) | trunc 63 | trimSuffix "-") }}
{{- else -}}
{{ .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{- define "opsdeck.secretName" -}}
{{- if .Values.secrets.existingSecret -}}
{{ .Values.secrets.existingSecret }}
{{- else -}}
{{ template "opsdeck.fullname" . }}
{{- end }}
{{- end }}

{{- define "opsdeck.databaseSecretName" -}}
{{- if .Values.database.existingSecret -}}
{{ .Values.database.existingSecret }}
{{- else -}}
{{ template "opsdeck.fullname" . }}
{{- end }}
{{- end }}
