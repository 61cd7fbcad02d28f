// Command pulumi-language-go runs a Pulumi Go program for the Pulumi CLI.
//
// The upstream language host (module github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3) is not
// served by the Go module proxy this project builds from, so the real-engine toolchain builds this one
// instead. It runs a program as the upstream host does: `go build` of the program directory into a
// temporary binary (or the runtime option `buildTarget`), or the prebuilt runtime option `binary`, run
// in the program's working directory with the environment the Go SDK's pulumi.Run reads (PULUMI_MONITOR,
// PULUMI_ENGINE, PULUMI_ORGANIZATION, PULUMI_PROJECT, PULUMI_ROOT_DIRECTORY, PULUMI_STACK, PULUMI_CONFIG,
// PULUMI_CONFIG_SECRET_KEYS, PULUMI_PARALLEL, PULUMI_DRY_RUN, PULUMI_TRACING), and the SDK's exit code
// 32 ("error already shown") as a bail. Dependencies are `go mod download`; SDKs are generated with
// pkg/v3's Go code generator and linked into go.mod with a replace directive. Everything else the
// engine drives (deployment, state, providers, the Go SDK) is the upstream code.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/constant"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/mod/modfile"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// Set by the toolchain script to the Pulumi SDK version this host is built from.
var version = "0.0.0"

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
	tracing       string
}

// options are the runtime options of Pulumi.yaml (`runtime: {name: go, options: {...}}`).
type options struct {
	binary      string
	buildTarget string
}

func parseOptions(info *pulumirpc.ProgramInfo) (options, error) {
	opts := options{}
	raw := info.GetOptions().AsMap()
	for key, target := range map[string]*string{"binary": &opts.binary, "buildTarget": &opts.buildTarget} {
		if v, ok := raw[key]; ok {
			s, ok := v.(string)
			if !ok {
				return opts, fmt.Errorf("%s option must be a string, not %v", key, v)
			}
			*target = s
		}
	}
	return opts, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

func (h *host) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	// The engine loads each provider when the program first registers one of its resources: the
	// Kubernetes provider from PATH, a project package from the path Pulumi.yaml gives it.
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func goCommand(ctx context.Context, dir string, stdout, stderr io.Writer, args ...string) error {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("go is not on PATH (it builds the program): %w", err)
	}
	cmd := exec.CommandContext(ctx, gobin, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return cmd.Run()
}

func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	fmt.Fprintln(stdout, "Installing dependencies...")
	if err := goCommand(server.Context(), req.GetInfo().GetProgramDirectory(), stdout, stderr,
		"mod", "download"); err != nil {
		return fmt.Errorf("go mod download failed: %w", err)
	}
	fmt.Fprintln(stdout, "Finished installing dependencies")
	return closer.Close()
}

// program builds the program (`go build` of its directory) into a temporary file, or into the runtime
// option `buildTarget`, unless the option `binary` names a prebuilt one.
func program(ctx context.Context, info *pulumirpc.ProgramInfo, opts options) (string, func(), error) {
	absolute := func(path string) string {
		if filepath.IsAbs(path) {
			return path
		}
		return filepath.Join(info.GetProgramDirectory(), path)
	}
	if opts.binary != "" {
		return absolute(opts.binary), func() {}, nil
	}
	cleanup := func() {}
	out := ""
	if opts.buildTarget != "" {
		out = absolute(opts.buildTarget)
	} else {
		tmp, err := os.MkdirTemp("", "pulumi-go.")
		if err != nil {
			return "", nil, err
		}
		cleanup = func() { os.RemoveAll(tmp) }
		out = filepath.Join(tmp, "program")
	}
	if err := goCommand(ctx, info.GetProgramDirectory(), os.Stderr, os.Stderr, "build", "-o", out, "."); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("unable to build the Go program in %s: %w", info.GetProgramDirectory(), err)
	}
	return out, cleanup, nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	opts, err := parseOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	binary, cleanup, err := program(ctx, req.GetInfo(), opts)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	defer cleanup()
	configMap := req.GetConfig()
	if configMap == nil {
		configMap = map[string]string{}
	}
	config, err := json.Marshal(configMap)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, binary, req.GetArgs()...)
	cmd.Dir = req.GetPwd()
	cmd.Env = append(os.Environ(),
		"PULUMI_MONITOR="+req.GetMonitorAddress(),
		"PULUMI_ENGINE="+h.engineAddress,
		"PULUMI_ORGANIZATION="+req.GetOrganization(),
		"PULUMI_PROJECT="+req.GetProject(),
		"PULUMI_ROOT_DIRECTORY="+req.GetInfo().GetRootDirectory(),
		"PULUMI_STACK="+req.GetStack(),
		"PULUMI_CONFIG="+string(config),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretJSON),
		"PULUMI_PARALLEL="+strconv.Itoa(int(req.GetParallel())),
		"PULUMI_DRY_RUN="+strconv.FormatBool(req.GetDryRun()),
	)
	if h.tracing != "" {
		cmd.Env = append(cmd.Env, "PULUMI_TRACING="+h.tracing)
	}
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == constant.ExitStatusLoggedError {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("program exited with non-zero exit code: %d", exitErr.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// GeneratePackage writes a Go SDK of a schema (`pulumi package gen-sdk --language go`, and
// `pulumi package add` / `pulumi install` for a project's packages) with pkg/v3's code generator.
func (h *host) GeneratePackage(
	ctx context.Context, req *pulumirpc.GeneratePackageRequest,
) (*pulumirpc.GeneratePackageResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()
	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, err
	}
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}
	files, err := gogen.GeneratePackage("pulumi-language-go", pkg, req.GetLocalDependencies())
	if err != nil {
		return nil, err
	}
	for name, data := range req.GetExtraFiles() {
		files[name] = data
	}
	for name, data := range files {
		path := filepath.Join(req.GetDirectory(), name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return nil, err
		}
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}

// Link makes the program's go.mod require each generated SDK module and replace it with its directory.
func (h *host) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	root := req.GetInfo().GetRootDirectory()
	instructions := []string{}
	for _, dep := range req.GetPackages() {
		sdkDir := filepath.Join(root, dep.GetPath())
		data, err := os.ReadFile(filepath.Join(sdkDir, "go.mod"))
		if err != nil {
			return nil, fmt.Errorf("reading the generated SDK's go.mod: %w", err)
		}
		modulePath := modfile.ModulePath(data)
		if modulePath == "" {
			return nil, fmt.Errorf("the generated SDK's go.mod in %s names no module", sdkDir)
		}
		rel, err := filepath.Rel(dir, sdkDir)
		if err != nil {
			return nil, err
		}
		if !strings.HasPrefix(rel, ".") {
			rel = "./" + rel
		}
		if err := goCommand(ctx, dir, io.Discard, os.Stderr, "mod", "edit",
			"-replace", modulePath+"="+filepath.ToSlash(rel),
			"-require", modulePath+"@v0.0.0-00010101000000-000000000000"); err != nil {
			return nil, fmt.Errorf("go mod edit failed: %w", err)
		}
		name := dep.GetPackage().GetName()
		if p := dep.GetPackage().GetParameterization(); p != nil {
			name = p.GetName()
		}
		instructions = append(instructions, fmt.Sprintf(
			"You can then import the SDK in your Go code with:\n\n  import \"%s/%s\"\n", modulePath, name))
	}
	return &pulumirpc.LinkResponse{ImportInstructions: strings.Join(instructions, "\n")}, nil
}

func main() {
	tracing := flag.String("tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	// Accepted for compatibility with the upstream host's command line; options come from Pulumi.yaml.
	flag.String("root", "", "Project root path")
	flag.String("binary", "", "A relative or an absolute path to a precompiled Pulumi application binary")
	flag.String("buildTarget", "", "Path to use to output the compiled Pulumi application binary")
	flag.Parse()
	engineAddress := ""
	if args := flag.Args(); len(args) > 0 {
		engineAddress = args[0]
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, &host{engineAddress: engineAddress, tracing: *tracing})
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "fatal: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "fatal: %v\n", err)
		os.Exit(1)
	}
}
